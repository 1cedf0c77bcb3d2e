// Shared pieces of the back-office screens (dialogs, banner, badges, skeletons, empty states, fields, tables).
export { AdminTable, type AdminColumn } from './AdminTable';
export { ConfirmDialog } from './ConfirmDialog';
export { EmptyState } from './EmptyState';
export { ErrorBanner } from './ErrorBanner';
export { ListState } from './ListState';
export { FormDialog } from './FormDialog';
export { PageHeader } from './PageHeader';
export { CounterSkeleton, LinesSkeleton, ListSkeleton } from './Skeletons';
export { StatusBadge, ToggleBadge, type BadgeTone } from './StatusBadge';
export { Checkbox, SelectField, TextField } from './fields';
export { Field, FieldError, inputClass, type FieldControlProps } from './Field';
export { SeasonFilter, seasonLabel, useAdminSeasons } from './SeasonFilter';
export { CREATE_PARAM, useCreateParam } from './useCreateParam';
export { dangerButton, panel, primaryButton, rowButton, rowDangerButton, secondaryButton } from './buttons';
