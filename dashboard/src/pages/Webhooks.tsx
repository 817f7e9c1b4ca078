import { Page, PageHeader } from '../ui';

export function WebhooksPage() {
  return (
    <Page>
      <PageHeader title="Webhooks" />
    </Page>
  );
}
