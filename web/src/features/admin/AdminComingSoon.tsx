import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { EmptyState } from './components/EmptyState';

/** Informes, Usuarios and Detección de abuso until their screens land (a later issue). */
export function AdminComingSoon({ title }: { title: string }) {
  useDocumentTitle(`${title} · Administración`);
  return (
    <section className="space-y-5">
      <h2 className="text-2xl font-black tracking-tight">{title}</h2>
      <EmptyState message="Esta sección llegará pronto." />
    </section>
  );
}
