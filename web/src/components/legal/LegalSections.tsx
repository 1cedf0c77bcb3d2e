import type { ReactNode } from 'react';
import { useSiteConfig } from '../../lib/siteStore';

export const LEGAL_LAST_UPDATED = 'Última actualización: 5 de enero de 2025';

export interface LegalSection {
  title: string;
  body: ReactNode;
}

interface LegalSectionsProps {
  sections: readonly LegalSection[];
  /** 2 on the standalone page (under its h1); 3 when embedded under a dialog's h2. */
  headingLevel?: 2 | 3;
}

/** Numbered sections of a legal text, with the date of the last update first. */
export function LegalSections({ sections, headingLevel = 2 }: LegalSectionsProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="space-y-7 text-[15px] leading-relaxed text-slate-700 dark:text-slate-300">
      <p className="text-sm text-slate-500 dark:text-slate-400">{LEGAL_LAST_UPDATED}</p>
      {sections.map((section, index) => (
        <section key={section.title} className="space-y-3">
          <Heading className="text-lg font-bold text-slate-900 dark:text-white">
            {index + 1}. {section.title}
          </Heading>
          {section.body}
        </section>
      ))}
    </div>
  );
}

/** The contact mailbox from the site configuration, as a mailto link once it is known. */
export function ContactEmail() {
  const config = useSiteConfig();
  if (!config) return <span>el correo de contacto publicado en este sitio</span>;
  return (
    <a href={`mailto:${config.contactEmail}`} className="font-semibold text-fuchsia-700 underline dark:text-fuchsia-400">
      {config.contactEmail}
    </a>
  );
}

export function BulletList({ items }: { items: readonly ReactNode[] }) {
  return (
    <ul className="list-disc space-y-1.5 pl-6 marker:text-fuchsia-500">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}

interface IntroducedListProps {
  intro: ReactNode;
  items: readonly ReactNode[];
  /** A closing paragraph after the list. */
  outro?: ReactNode;
}

/** A section body made of an introductory paragraph, a bullet list and, optionally, a closing paragraph. */
export function IntroducedList({ intro, items, outro }: IntroducedListProps) {
  return (
    <>
      <p>{intro}</p>
      <BulletList items={items} />
      {outro && <p>{outro}</p>}
    </>
  );
}
