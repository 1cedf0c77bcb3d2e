// Abuse detection (spec admin-backoffice §2 Abuse report, §8 Abuse detection rules). Dependency-free.
export const ABUSE_LIMITS = {
  /** A device is flagged when this many different accounts voted from it. */
  accountsPerDevice: 2,
  /** A user is flagged when voting from this many devices. */
  devicesPerUser: 3,
  /** Characters of a flagged device's id shown; of a flagged user's devices. */
  deviceIdShown: 16,
  userDeviceIdShown: 8,
  /** Votes listed for one device or user; votes voided or restored at once. */
  votesListed: 500,
  voidBatch: 500,
  voidReasonMin: 3,
  voidReason: 500,
  /** Flagged devices and users kept in a scan's report. */
  reportRows: 200,
} as const;

export const ABUSE_MESSAGES = {
  loading: 'Cargando reporte...',
  errorPrefix: 'Error: ',
  notice: 'Este reporte es informativo: revisa cada caso manualmente antes de tomar medidas.',
  voidReasonRequired: 'Debes indicar un motivo de al menos 3 caracteres',
  votesQueryOne: 'Indica un dispositivo o un usuario',
  scanRunning: 'Ya hay un análisis en curso',
  /** The error of a scan whose worker died before it finished. */
  scanInterrupted: 'Análisis interrumpido',
} as const;
