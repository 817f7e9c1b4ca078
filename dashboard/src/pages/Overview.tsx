import { Page, PageHeader } from '../ui';

export function OverviewPage() {
  return (
    <Page>
      <PageHeader title="Overview" />
    </Page>
  );
}
