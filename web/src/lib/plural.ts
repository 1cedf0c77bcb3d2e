/** Spanish count with its noun: '1 voto', '12 votos'. */
export const plural = (count: number, one: string, many: string) => `${count.toLocaleString('es')} ${count === 1 ? one : many}`;
