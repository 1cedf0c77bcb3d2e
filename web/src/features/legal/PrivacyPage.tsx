import { LegalPage } from './LegalPage';
import { PrivacyContent } from '../../components/legal/PrivacyContent';

export function PrivacyPage() {
  return (
    <LegalPage title="Política de Privacidad">
      <PrivacyContent />
    </LegalPage>
  );
}
