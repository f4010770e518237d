import { PageHeader } from '../../components/page-header.tsx';

export default function HomePage() {
  return <PageHeader title="HomePage" />;
}
