import { PageHeader } from '../../components/page-header.tsx';

export default function IncorporationPage() {
  return <PageHeader title="IncorporationPage" />;
}
