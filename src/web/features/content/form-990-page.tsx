import { PageHeader } from '../../components/page-header.tsx';

export default function Form990Page() {
  return <PageHeader title="Form990Page" />;
}
