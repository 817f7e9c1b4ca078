// The candidate's profile: contact details, every application (listing and stage in words, with a
// move and a rejection), the résumé and other documents, notes, and the timeline.
import { Anchor, Badge, Divider, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, call, useLoad } from '../../api';
import { formatDate, LoadState } from '../../ui';
import { Applications } from './Applications';
import { Files } from './Files';
import { Notes } from './Notes';
import { Timeline } from './Timeline';
import { sourceLabel } from './words';

export function Profile({ id, onClose }: { id: string; onClose: () => void }) {
  const profile = useLoad(() => call(api.GET('/public/v1/candidates/{id}', { params: { path: { id } } })), [id]);
  // Anything done on the profile reads the timeline again.
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((n) => n + 1);
  return (
    <Drawer opened onClose={onClose} title="Candidate" position="right" size="xl">
      <LoadState state={profile} label="Loading the profile">
        {(data) => {
          const name = `${data.firstName} ${data.lastName}`;
          return (
            <Stack gap="md">
              <Stack gap={6} component="section" aria-labelledby="profile-name">
                <Title order={3} size="h4" id="profile-name">
                  {name}
                </Title>
                {data.headline && <Text>{data.headline}</Text>}
                <Stack gap={2} data-testid="contact">
                  <Anchor size="sm" href={`mailto:${data.email}`} c="indigo.9" style={{ overflowWrap: 'anywhere' }}>
                    {data.email}
                  </Anchor>
                  {data.phone && (
                    <Anchor size="sm" href={`tel:${data.phone.replace(/[^\d+]/g, '')}`} c="indigo.9">
                      {data.phone}
                    </Anchor>
                  )}
                  {data.location && <Text size="sm">{data.location}</Text>}
                  {data.links.map((link) => (
                    <Anchor key={link} size="sm" href={link} rel="noreferrer noopener" target="_blank" c="indigo.9" style={{ overflowWrap: 'anywhere' }}>
                      {link}
                    </Anchor>
                  ))}
                </Stack>
                {data.skills.length > 0 && (
                  <Group gap={4}>
                    {data.skills.map((skill) => (
                      <Badge key={skill} variant="outline" tt="none">
                        {skill}
                      </Badge>
                    ))}
                  </Group>
                )}
                <Text size="xs" c="dimmed">
                  {sourceLabel(data.source)} · added {formatDate(data.createdAt)}
                </Text>
              </Stack>
              <Divider />
              <Applications
                name={name}
                applications={data.applications}
                onChanged={() => {
                  profile.reload();
                  changed();
                }}
              />
              <Divider />
              <Files candidateId={id} onChanged={changed} />
              <Divider />
              <Notes candidateId={id} onChanged={changed} />
              <Divider />
              <Timeline candidateId={id} version={version} />
            </Stack>
          );
        }}
      </LoadState>
    </Drawer>
  );
}
