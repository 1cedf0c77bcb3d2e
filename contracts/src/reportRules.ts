// Reports (spec admin-backoffice §2 Reports, §7). Dependency-free.
export const REPORT_PERIODS = ['today', 'yesterday', 'week', 'month', '3months', '6months', 'custom'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

export const REPORT_PERIOD_LABELS: Record<ReportPeriod, string> = {
  today: 'Hoy',
  yesterday: 'Ayer',
  week: 'Esta semana',
  month: 'Este mes',
  '3months': 'Últimos 3 meses',
  '6months': 'Últimos 6 meses',
  custom: 'Rango personalizado',
};

export const DEFAULT_REPORT_PERIOD: ReportPeriod = 'week';
/** The longest custom range, in days. */
export const REPORT_MAX_DAYS = 400;

export const REPORT_MESSAGES = {
  empty: 'No hay datos disponibles para el período seleccionado',
  loadFailed: 'Error al cargar estadísticas',
  customDatesRequired: 'Debes seleccionar las fechas Desde y Hasta',
  customOrder: 'La fecha Desde debe ser anterior o igual a la fecha Hasta',
  customTooLong: 'El rango no puede superar 400 días',
} as const;

export const REPORT_COLUMNS = ['Fecha', 'Usuarios Activos', 'Usuarios Nuevos', 'Total Votos', 'Visualizaciones'] as const;
