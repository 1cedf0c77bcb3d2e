import { REPORT_COLUMNS, REPORT_MAX_DAYS, REPORT_MESSAGES, type ReportPeriod } from '@tribuna/contracts/reportRules';
import type { Report, ReportDay } from '@tribuna/contracts/api/admin/reports';

const numberFormat = new Intl.NumberFormat('es-MX');
/** A count as the reports show it (es-MX grouping: 1,234,567). */
export const formatCount = (n: number) => numberFormat.format(n);

// Fixed names instead of Intl: the same text on every browser and ICU version ('sep', not 'sept').
const WEEKDAYS = ['dom', 'lun', 'mar', 'mié', 'jue', 'vie', 'sáb'];
const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];

/** A calendar day (YYYY-MM-DD, a day of SHOW_TIMEZONE, no time zone conversion) in Spanish: 'lun 24 nov 2026'. */
export function formatReportDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay();
  return `${WEEKDAYS[weekday]} ${date} ${MONTHS[month - 1]} ${year}`;
}

/** Short form for the chart's axis: '24 nov'. */
export function formatShortDay(day: string): string {
  const [, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${MONTHS[month - 1]}`;
}

/** The query of GET /api/admin/reports for a period (custom takes the applied range). */
export function reportQuery(period: ReportPeriod, range: { from: string; to: string } | null): Record<string, string> {
  if (period !== 'custom') return { period };
  return { period, from: range?.from ?? '', to: range?.to ?? '' };
}

/** The Rango personalizado check before Aplicar: both dates, from ≤ to, at most REPORT_MAX_DAYS; null when valid. */
export function validateCustomRange(from: string, to: string): string | null {
  if (!from || !to) return REPORT_MESSAGES.customDatesRequired;
  if (from > to) return REPORT_MESSAGES.customOrder;
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > REPORT_MAX_DAYS) return REPORT_MESSAGES.customTooLong;
  return null;
}

/** Nothing happened in the period: no days, or every figure zero. */
export function isEmptyReport(report: Report): boolean {
  const zero = (f: Omit<ReportDay, 'day'>) => f.activeUsers === 0 && f.newUsers === 0 && f.totalVotes === 0 && f.pageViews === 0;
  return report.days.length === 0 || (zero(report.totals) && report.days.every(zero));
}

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The table as shown (newest first) as CSV: a BOM so Excel reads UTF-8 ('Fecha' columns with
 * accents), the REPORT_COLUMNS header, dates as YYYY-MM-DD, plain integers, CRLF line ends.
 */
export function reportCsv(days: readonly ReportDay[]): string {
  const lines = [REPORT_COLUMNS.map(csvCell).join(',')];
  for (const d of days) lines.push([d.day, d.activeUsers, d.newUsers, d.totalVotes, d.pageViews].map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export const reportCsvFilename = (report: Pick<Report, 'from' | 'to'>) => `informe-${report.from}-${report.to}.csv`;

/** Downloads `text` as a file (a Blob link clicked once, then released). */
export function downloadText(text: string, filename: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** 'Actualizado hace 5 min' (hours, then days, past an hour); 'Sin datos calculados aún' when never. */
export function updatedLabel(updatedAt: string | null, now: number): string {
  if (!updatedAt) return 'Sin datos calculados aún';
  const minutes = Math.max(0, Math.floor((now - Date.parse(updatedAt)) / 60_000));
  if (minutes < 60) return `Actualizado hace ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `Actualizado hace ${hours} h`;
  const days = Math.floor(hours / 24);
  return `Actualizado hace ${days} ${days === 1 ? 'día' : 'días'}`;
}
