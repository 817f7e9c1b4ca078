import { Page, PageHeader } from '../ui';

export function PipelinePage() {
  return (
    <Page>
      <PageHeader title="Pipeline" />
    </Page>
  );
}
