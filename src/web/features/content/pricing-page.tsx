import { PageHeader } from '../../components/page-header.tsx';

export default function PricingPage() {
  return <PageHeader title="PricingPage" />;
}
