/** Poll totals in a comparable form: "totalVotes/totalPoints|optionId:votes:points,…" (options sorted, zeros left out). */
export function totalsSignature(s: {
  totalVotes: number;
  totalPoints: number;
  options: { optionId: string; totalVotes: number; totalPoints: number }[];
}): string {
  const options = [...s.options]
    .filter((o) => o.totalVotes !== 0 || o.totalPoints !== 0)
    .sort((a, b) => (a.optionId < b.optionId ? -1 : 1))
    .map((o) => `${o.optionId}:${o.totalVotes}:${o.totalPoints}`)
    .join(',');
  return `${s.totalVotes}/${s.totalPoints}|${options}`;
}
