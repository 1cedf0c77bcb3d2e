import { LegalPage } from './LegalPage';
import { TermsContent } from '../../components/legal/TermsContent';

export function TermsPage() {
  return (
    <LegalPage title="Términos y Condiciones">
      <TermsContent />
    </LegalPage>
  );
}
