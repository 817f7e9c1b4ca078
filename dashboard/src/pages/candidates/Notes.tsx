// Notes on the candidate, visible to the whole company: who wrote each and when, newest first, and a
// field to add one.
import { Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad, type Schemas } from '../../api';
import { useAction } from '../../components';
import { Empty, ErrorMessage, formatDate, LoadState, timeAgo } from '../../ui';

const MAX = 10_000;

/** Who did it, in words: a person's name, an integration's label. */
export function actorName(actor: Schemas['Actor'] | null): string {
  if (!actor) return 'the system';
  if (actor.label) return actor.type === 'API_KEY' ? `the integration “${actor.label}”` : actor.label;
  return actor.type === 'API_KEY' ? 'a removed integration' : 'someone without a name';
}

export function Notes({ candidateId, onChanged }: { candidateId: string; onChanged: () => void }) {
  const notes = useLoad(() => call(api.GET('/public/v1/candidates/{id}/notes', { params: { path: { id: candidateId }, query: { size: 100 } } })), [candidateId]);
  const [body, setBody] = useState('');
  const adding = useAction();
  const add = () =>
    void adding
      .run(() => call(api.POST('/public/v1/candidates/{id}/notes', { params: { path: { id: candidateId } }, body: { body: body.trim() } })))
      .then((ok) => {
        if (!ok) return;
        setBody('');
        notes.reload();
        onChanged();
      });
  return (
    <Stack gap="xs" component="section" aria-labelledby="profile-notes">
      <Title order={4} size="h5" id="profile-notes">
        Notes
      </Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <Textarea
          label="Add a note"
          description="Seen by everyone in your company."
          value={body}
          onChange={(event) => setBody(event.currentTarget.value)}
          autosize
          minRows={2}
          maxRows={8}
          maxLength={MAX}
        />
        <Group justify="flex-end" mt="xs">
          <Button type="submit" size="xs" loading={adding.busy} disabled={body.trim() === ''}>
            Add note
          </Button>
        </Group>
      </form>
      <ErrorMessage error={adding.error} title="Could not add the note" />
      <LoadState state={notes} label="Loading the notes">
        {({ data }) =>
          data.length === 0 ? (
            <Empty>No notes yet.</Empty>
          ) : (
            <Stack gap={6} data-testid="profile-notes">
              {data.map((note) => (
                <Paper key={note.id} withBorder p="xs" component="article">
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {note.body}
                  </Text>
                  <Text size="xs" c="dimmed" mt={4} title={formatDate(note.createdAt)}>
                    {actorName(note.author)} · {formatDate(note.createdAt)} ({timeAgo(note.createdAt)}){note.editedAt ? ' · edited' : ''}
                  </Text>
                </Paper>
              ))}
            </Stack>
          )
        }
      </LoadState>
    </Stack>
  );
}
