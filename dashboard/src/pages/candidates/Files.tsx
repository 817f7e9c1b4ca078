// The candidate's documents: the résumé first, each opened from a fresh signed link, and an upload
// by drag and drop or by choosing a file (the server decides the type from the bytes and refuses
// what it does not take; the refusal is said in words here).
import { Button, FileButton, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState, type DragEvent } from 'react';
import { uploadCandidateFile, RecruitingApiError } from '@recruiting/sdk';
import { api, ApiError, call, useLoad, type Schemas } from '../../api';
import { Notice } from '../../components';
import { Empty, ErrorMessage, formatDate, LoadState } from '../../ui';
import { actorName } from './Notes';
import { fileSize, kindLabel, KINDS, type FileKind } from './words';

type CandidateFile = Schemas['CandidateFile'];

const ACCEPTED = '.pdf,.doc,.docx,.odt,.rtf,.txt,.png,.jpg,.jpeg';
const ORDER: Record<FileKind, number> = { RESUME: 0, COVER_LETTER: 1, PORTFOLIO: 2, OTHER: 3 };

/** What a refused upload means, for a person: the server's codes in words. */
export function refusal(fileName: string, error: unknown): string | undefined {
  if (!(error instanceof RecruitingApiError)) return undefined;
  if (error.status === 413) {
    const limit = /(\d+) bytes/.exec(error.body?.message ?? '')?.[1];
    return `“${fileName}” is too large${limit ? `: files up to ${fileSize(Number(limit))} are accepted` : ''}. Nothing was stored.`;
  }
  if (error.status === 415) {
    return `“${fileName}” is not a kind of file this service keeps. Send a PDF, a Word (DOC or DOCX), OpenDocument or RTF document, a plain text file, or a PNG or JPEG image. Nothing was stored.`;
  }
  if (error.status === 422 && /empty/.test(JSON.stringify(error.body?.details ?? ''))) return `“${fileName}” is empty. Nothing was stored.`;
  return undefined;
}

/**
 * Opens a file: the API's download is an attachment (never shown inline), so the browser saves it
 * and the person's own reader opens it. A fresh five-minute signed link is followed in place: no
 * empty tab is left behind (docs/decisions.md, "The candidate profile's résumé").
 */
async function openFile(candidateId: string, file: CandidateFile): Promise<void> {
  const link = await call(api.GET('/public/v1/candidates/{id}/files/{fileId}/url', { params: { path: { id: candidateId, fileId: file.id } } }));
  const anchor = document.createElement('a');
  anchor.href = link.url;
  anchor.download = file.fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

function Upload({ candidateId, onUploaded }: { candidateId: string; onUploaded: (file: CandidateFile) => void }) {
  const [kind, setKind] = useState<FileKind>('RESUME');
  const [over, setOver] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [error, setError] = useState<unknown>();

  const send = async (file: File | null) => {
    if (!file) return;
    setProblem(undefined);
    setError(undefined);
    setBusy(true);
    try {
      onUploaded(await uploadCandidateFile(api, { candidateId, kind, file, fileName: file.name }));
    } catch (caught) {
      const words = refusal(file.name, caught);
      if (words) setProblem(words);
      else setError(caught instanceof RecruitingApiError ? new ApiError(caught.status, caught.body) : caught);
    } finally {
      setBusy(false);
    }
  };
  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const files = event.dataTransfer.files;
    if (files.length > 1) setProblem('Drop one file at a time.');
    else void send(files[0] ?? null);
  };

  return (
    <Stack gap="xs">
      <Paper
        withBorder
        p="md"
        data-testid="drop-zone"
        data-over={over || undefined}
        style={{ borderStyle: 'dashed', borderWidth: 2, borderColor: over ? 'var(--mantine-color-indigo-6)' : undefined }}
        bg={over ? 'indigo.0' : undefined}
        onDragEnter={(event: DragEvent<HTMLDivElement>) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragOver={(event: DragEvent<HTMLDivElement>) => event.preventDefault()}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            size="xs"
            label="Kind"
            data={KINDS.map((value) => ({ value, label: kindLabel(value) }))}
            value={kind}
            onChange={(value) => value && setKind(value as FileKind)}
            allowDeselect={false}
            w={160}
            comboboxProps={{ withinPortal: true }}
          />
          <FileButton onChange={(file) => void send(file)} accept={ACCEPTED}>
            {(props) => (
              <Button {...props} size="xs" variant="default" loading={busy}>
                Choose a file
              </Button>
            )}
          </FileButton>
        </Group>
        <Text size="xs" c="dimmed" mt="xs">
          Or drop a file here. PDF, Word, OpenDocument, RTF, text, PNG or JPEG.
        </Text>
      </Paper>
      {problem && (
        <Text size="sm" c="red.9" role="alert" data-testid="upload-refused">
          {problem}
        </Text>
      )}
      <ErrorMessage error={error} title="The upload failed" />
    </Stack>
  );
}

export function Files({ candidateId, onChanged }: { candidateId: string; onChanged: () => void }) {
  const files = useLoad(() => call(api.GET('/public/v1/candidates/{id}/files', { params: { path: { id: candidateId }, query: { size: 100 } } })), [candidateId]);
  const [added, setAdded] = useState<string>();
  const [error, setError] = useState<unknown>();
  return (
    <Stack gap="xs" component="section" aria-labelledby="profile-files">
      <Title order={4} size="h5" id="profile-files">
        Résumé and documents
      </Title>
      <LoadState state={files} label="Loading the documents">
        {({ data }) =>
          data.length === 0 ? (
            <Empty>No résumé or other document yet.</Empty>
          ) : (
            <Stack gap={6} data-testid="profile-files">
              {[...data]
                .sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || b.createdAt.localeCompare(a.createdAt))
                .map((file) => (
                  <Paper key={file.id} withBorder p="xs">
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <div style={{ minWidth: 0 }}>
                        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                          {kindLabel(file.kind)}: {file.fileName}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {fileSize(file.size)} · added by {file.uploadedBy.type === 'CANDIDATE' ? 'the candidate, applying' : actorName({ ...file.uploadedBy, type: file.uploadedBy.type, id: file.uploadedBy.id ?? '' })} · {formatDate(file.createdAt)}
                        </Text>
                      </div>
                      <Button size="xs" variant="light" aria-label={`Open ${file.fileName}`} onClick={() => void openFile(candidateId, file).catch(setError)}>
                        Open
                      </Button>
                    </Group>
                  </Paper>
                ))}
            </Stack>
          )
        }
      </LoadState>
      <ErrorMessage error={error} title="Could not open the file" />
      <Notice>{added}</Notice>
      <Upload
        candidateId={candidateId}
        onUploaded={(file) => {
          setAdded(`${file.fileName} added.`);
          files.reload();
          onChanged();
        }}
      />
    </Stack>
  );
}
