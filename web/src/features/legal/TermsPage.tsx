import { LegalPage } from './LegalPage';
import { TermsContent } from './TermsContent';

export function TermsPage() {
  return (
    <LegalPage title="Términos y Condiciones">
      <TermsContent />
    </LegalPage>
  );
}
