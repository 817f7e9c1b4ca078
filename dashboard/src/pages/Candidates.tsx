import { Alert, Button, Card, FileInput, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useQueryParam } from '../router';
import { api, ApiError, call, type Schemas } from '../api';
import { useAction } from '../components';
import { ListingPicker, type PickedListing } from '../listing-picker';
import { ErrorMessage, Page, PageHeader, useIsAdmin } from '../ui';
import { CandidateList } from './candidates/CandidateList';
import { Profile } from './candidates/Profile';

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

export function CandidatesPage() {
  const isAdmin = useIsAdmin();
  // The open profile lives in the address (as the filters do): a reload or a link shows it again,
  // and the back button closes it.
  const [openParam, setOpenParam] = useQueryParam('candidate');
  const open = openParam && /^[0-9a-f-]{36}$/i.test(openParam) ? openParam : undefined;
  const [round, setRound] = useState(0);
  return (
    <Page>
      <PageHeader title="Candidates" />
      <CandidateList
        key={round}
        onOpen={(id) => setOpenParam(id, 'push')}
        emptyHint={`No candidates yet. ${isAdmin ? 'Import a CSV below, or let' : 'Let'} applications come in.`}
      />
      {isAdmin ? (
        <ImportCsv onImported={() => setRound((n) => n + 1)} />
      ) : (
        <Text size="sm" c="dimmed">
          Only an admin can import candidates.
        </Text>
      )}
      {open && <Profile id={open} onClose={() => setOpenParam(null)} />}
    </Page>
  );
}
