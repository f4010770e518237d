import { PageHeader } from '../../components/page-header.tsx';

export default function PrivacyPage() {
  return <PageHeader title="PrivacyPage" />;
}
