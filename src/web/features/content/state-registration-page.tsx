import { PageHeader } from '../../components/page-header.tsx';

export default function StateRegistrationPage() {
  return <PageHeader title="StateRegistrationPage" />;
}
