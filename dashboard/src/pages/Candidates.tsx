import { Page, PageHeader } from '../ui';

export function CandidatesPage() {
  return (
    <Page>
      <PageHeader title="Candidates" />
    </Page>
  );
}
