import { Alert, Badge, Button, Card, Drawer, FileInput, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useQueryParam } from '../router';
import { api, ApiError, call, useLoad, type Schemas } from '../api';
import { ResourceTable, useAction } from '../components';
import { ListingPicker, type PickedListing } from '../listing-picker';
import { Empty, ErrorMessage, formatDate, LoadState, Page, PageHeader, timeAgo, useIsAdmin } from '../ui';

type ImportRow = { firstName: string; lastName: string; email: string; phone?: string | null; headline?: string | null; location?: string | null; skills?: string[]; links?: string[] };

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((cells) => cells.some((cell) => cell.trim() !== ''));
}

const COLUMNS = ['firstName', 'lastName', 'email', 'phone', 'headline', 'location', 'skills', 'links'] as const;

interface Parsed {
  rows: ImportRow[];
  /** Row number in the file (1 = the header) -> problems. */
  problems: Map<number, string[]>;
}

function toRows(table: string[][]): Parsed {
  const problems = new Map<number, string[]>();
  const [header = [], ...body] = table;
  const names = header.map((name) => name.trim().replace(/[_ ](\w)/g, (_m, letter: string) => letter.toUpperCase()).replace(/^\w/, (c) => c.toLowerCase()));
  const missing = ['firstName', 'lastName', 'email'].filter((name) => !names.includes(name));
  if (missing.length > 0) problems.set(1, [`the header needs the columns ${missing.join(', ')}`]);
  const rows = body.map((cells, index) => {
    const record: Record<string, string> = {};
    names.forEach((name, column) => {
      if ((COLUMNS as readonly string[]).includes(name)) record[name] = (cells[column] ?? '').trim();
    });
    const row: ImportRow = { firstName: record.firstName ?? '', lastName: record.lastName ?? '', email: record.email ?? '' };
    if (record.phone) row.phone = record.phone;
    if (record.headline) row.headline = record.headline;
    if (record.location) row.location = record.location;
    if (record.skills) row.skills = record.skills.split(/[;|]/).map((skill) => skill.trim()).filter(Boolean);
    if (record.links) row.links = record.links.split(/[;| ]/).map((link) => link.trim()).filter(Boolean);
    const found: string[] = [];
    if (!row.firstName) found.push('firstName is empty');
    if (!row.lastName) found.push('lastName is empty');
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(row.email)) found.push(`email "${row.email}" is not an e-mail address`);
    if (found.length > 0) problems.set(index + 2, found);
    return row;
  });
  return { rows, problems };
}

/** The server's details name rows as candidates[3].email (request order): file row 3 + 2. */
function problemsFromServer(error: ApiError): Map<number, string[]> {
  const problems = new Map<number, string[]>();
  for (const detail of error.details) {
    const match = /candidates\[(\d+)\]\.?(.*)/.exec(detail.field);
    const line = match ? Number(match[1]) + 2 : 0;
    const list = problems.get(line) ?? [];
    list.push(match?.[2] ? `${match[2]} ${detail.message}` : `${detail.field} ${detail.message}`);
    problems.set(line, list);
  }
  return problems;
}

function ImportCsv({ onImported }: { onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [picked, setPicked] = useState<PickedListing | null>(null);
  const listing = picked?.id;
  const [parsed, setParsed] = useState<Parsed>();
  const [result, setResult] = useState<Schemas['CandidateImportResult']>();
  const [problems, setProblems] = useState<Map<number, string[]>>();
  const [error, setError] = useState<unknown>();
  const importing = useAction();

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setResult(undefined);
    setError(undefined);
    setProblems(undefined);
    if (!chosen) return setParsed(undefined);
    const next = toRows(parseCsv(await chosen.text()));
    setParsed(next);
    if (next.problems.size > 0) setProblems(next.problems);
  };
  const upload = () => {
    if (!parsed) return;
    setError(undefined);
    setProblems(undefined);
    void importing.run(async () => {
      try {
        setResult(await call(api.POST('/public/v1/candidates/import', { body: { candidates: parsed.rows, ...(listing ? { jobListingId: listing } : {}) } })));
        onImported();
      } catch (caught) {
        // Rows the server refused are listed with the file's own problems, by row.
        if (caught instanceof ApiError && caught.status === 422 && caught.details.some((detail) => detail.field.startsWith('candidates['))) {
          setProblems(problemsFromServer(caught));
        } else setError(caught);
      }
    });
  };
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Import candidates from CSV
        </Title>
        <Text size="sm" c="dimmed">
          Columns: firstName, lastName, email (required), phone, headline, location, skills (separated by ;), links. Rows are matched by e-mail: known
          candidates are updated. All or nothing: one bad row and nothing is imported.
        </Text>
        <Group align="flex-end" wrap="wrap">
          <FileInput label="CSV file" accept=".csv,text/csv" value={file} onChange={(chosen) => void choose(chosen)} clearable clearButtonProps={{ 'aria-label': 'Clear the chosen file' }} w={280} placeholder="Choose a file" />
          <ListingPicker label="Add to the pipeline of (optional)" statuses={['ACTIVE']} clearable placeholder="Search active listings" value={picked} onChange={setPicked} width={280} />
          <Button onClick={upload} loading={importing.busy} disabled={!parsed || parsed.rows.length === 0 || parsed.problems.size > 0}>
            Import {parsed ? `${parsed.rows.length} row(s)` : ''}
          </Button>
        </Group>
        {problems && problems.size > 0 && (
          <Alert color="red" variant="light" title="Fix these rows and choose the file again" role="alert">
            <ul style={{ margin: 0, paddingLeft: 20 }} data-testid="import-problems">
              {[...problems.entries()]
                .sort(([a], [b]) => a - b)
                .map(([line, messages]) => (
                  <li key={line}>
                    <Text size="sm">
                      {line > 0 ? `Row ${line}` : 'File'}: {messages.join('; ')}
                    </Text>
                  </li>
                ))}
            </ul>
          </Alert>
        )}
        <ErrorMessage error={error} title="The import failed" />
        {result && (
          <Alert color="green" variant="light" title="Imported" data-testid="import-result">
            {result.created} created, {result.updated} updated
            {listing ? `, ${result.applicationsCreated} added to the pipeline` : ''}.
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

function Profile({ id, onClose }: { id: string; onClose: () => void }) {
  const profile = useLoad(() => call(api.GET('/public/v1/candidates/{id}', { params: { path: { id } } })), [id]);
  return (
    <Drawer opened onClose={onClose} title="Candidate" position="right" size="lg">
      <LoadState state={profile} label="Loading the profile">
        {(data) => (
          <Stack>
            <Title order={3} size="h4">
              {data.firstName} {data.lastName}
            </Title>
            {data.headline && <Text>{data.headline}</Text>}
            <Text size="sm">
              {data.email}
              {data.phone ? ` · ${data.phone}` : ''}
              {data.location ? ` · ${data.location}` : ''}
            </Text>
            <Group gap={4}>
              {data.skills.map((skill) => (
                <Badge key={skill} variant="outline" tt="none">
                  {skill}
                </Badge>
              ))}
            </Group>
            {data.links.map((link) => (
              <Text key={link} size="sm" component="a" href={link} rel="noreferrer noopener" target="_blank" c="indigo.9">
                {link}
              </Text>
            ))}
            <Text size="xs" c="dimmed">
              Source {data.source.toLowerCase()} · added {formatDate(data.createdAt)}
            </Text>
            <Title order={4} size="h5">
              Applications
            </Title>
            {data.applications.length === 0 ? (
              <Empty>No applications.</Empty>
            ) : (
              data.applications.map((application) => (
                <Text key={application.id} size="sm">
                  {application.status.replace('_', ' ').toLowerCase()} · applied {timeAgo(application.appliedAt)}
                </Text>
              ))
            )}
          </Stack>
        )}
      </LoadState>
    </Drawer>
  );
}

export function CandidatesPage() {
  const isAdmin = useIsAdmin();
  // The search, the page and the open profile live in the address: a reload or a link shows them again.
  const [searchParam, setSearchParam] = useQueryParam('q');
  const [pageParam, setPageParam] = useQueryParam('page');
  const [openParam, setOpenParam] = useQueryParam('candidate');
  const search = searchParam ?? '';
  const page = Math.max(1, Number.parseInt(pageParam ?? '1', 10) || 1);
  const setPage = (next: number) => setPageParam(next > 1 ? String(next) : null, 'push');
  const open = openParam ?? undefined;
  const setOpen = (id: string | undefined) => setOpenParam(id ?? null, id ? 'push' : 'replace');
  const [query, setQuery] = useState(search);
  const candidates = useLoad(
    () => call(api.GET('/public/v1/candidates', { params: { query: { page: page - 1, size: 20, ...(search ? { q: search } : {}) } } })),
    [page, search],
  );
  return (
    <Page>
      <PageHeader title="Candidates" />
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setSearchParam(query.trim(), 'push');
          setPageParam(null);
        }}
      >
        <Group align="flex-end" wrap="wrap">
          <TextInput label="Search candidates" description="Name, e-mail or headline" value={query} onChange={(event) => setQuery(event.currentTarget.value)} w={300} />
          <Button type="submit" variant="default">
            Search
          </Button>
        </Group>
      </form>
      <ResourceTable
        state={candidates}
        loadingLabel="Loading candidates"
        empty={search ? `No candidate matches “${search}”.` : `No candidates yet. ${isAdmin ? 'Import a CSV below, or let' : 'Let'} applications come in.`}
        label="Candidates"
        minWidth={560}
        rowKey={(candidate) => candidate.id}
        page={{ value: page, onChange: setPage }}
        countLabel="candidate(s)"
        columns={[
          {
            header: 'Name',
            cell: (candidate) => (
              <Button variant="subtle" size="compact-sm" onClick={() => setOpen(candidate.id)}>
                {candidate.firstName} {candidate.lastName}
              </Button>
            ),
          },
          { header: 'E-mail', cell: (candidate) => candidate.email },
          { header: 'Headline', cell: (candidate) => candidate.headline ?? '—' },
        ]}
      />
      {isAdmin ? (
        <ImportCsv onImported={candidates.reload} />
      ) : (
        <Text size="sm" c="dimmed">
          Only an admin can import candidates.
        </Text>
      )}
      {open && <Profile id={open} onClose={() => setOpen(undefined)} />}
    </Page>
  );
}
