import { Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, call, useLoad } from '../api';
import { Empty, LoadState, Page, PageHeader } from '../ui';
import { ListingPicker, type PickedListing } from '../listing-picker';

const STAGE_LABEL: Record<string, string> = { ACTIVE: 'Applied', IN_REVIEW: 'In review', INTERVIEW: 'Interview', OFFER: 'Offer', HIRED: 'Hired' };
const INK = '#3b4bb0';

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value}
      </Text>
    </Card>
  );
}

export function OverviewPage() {
  const [picked, setPicked] = useState<PickedListing | null>(null);
  const listing = picked?.id;
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const overview = useLoad(
    () =>
      call(
        api.GET('/public/v1/analytics/overview', {
          params: { query: { ...(listing ? { jobListingId: listing } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) } },
        }),
      ),
    [listing, from, to],
  );

  return (
    <Page>
      <PageHeader title="Overview" />
      <Group align="flex-end" wrap="wrap">
        <ListingPicker label="Job listing" placeholder="All listings (type to search)" clearable value={picked} onChange={setPicked} width={260} />
        <TextInput label="From" type="date" value={from} onChange={(event) => setFrom(event.currentTarget.value)} w={170} />
        <TextInput label="To" type="date" value={to} onChange={(event) => setTo(event.currentTarget.value)} w={170} />
      </Group>
      <LoadState state={overview} label="Loading the overview">
        {(data) => (
          <Stack>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Stat label="Applications" value={data.totalApplications} />
              <Stat label="Hires" value={data.hires} />
              <Stat label="Median days to hire" value={data.medianDaysToHire ?? '—'} />
              <Stat label="Active listings" value={data.jobListingsByStatus.ACTIVE} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Stage funnel
                </Title>
                {data.totalApplications === 0 ? (
                  <Empty>No applications in this range yet.</Empty>
                ) : (
                  <figure style={{ margin: 0 }} aria-label="Stage funnel: applications that reached each stage" data-testid="funnel-chart">
                    <div style={{ width: '100%', height: 260 }}>
                      <ResponsiveContainer>
                        <BarChart data={data.funnel.map((step) => ({ stage: STAGE_LABEL[step.stage] ?? step.stage, count: step.count }))} layout="vertical" margin={{ left: 16, right: 32 }}>
                          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                          <XAxis type="number" allowDecimals={false} />
                          <YAxis type="category" dataKey="stage" width={80} />
                          <Tooltip />
                          <Bar dataKey="count" fill={INK} isAnimationActive={false}>
                            <LabelList dataKey="count" position="right" />
                          </Bar>
                        </BarChart>
                      </ResponsiveContainer>
                    </div>
                    <figcaption>
                      <Text size="xs" c="dimmed">
                        {data.funnel.map((step) => `${STAGE_LABEL[step.stage]}: ${step.count}${step.conversionRate === null ? '' : ` (${Math.round(step.conversionRate * 100)}%)`}`).join(' · ')}
                      </Text>
                    </figcaption>
                  </figure>
                )}
              </Card>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Applications over time
                </Title>
                <figure style={{ margin: 0 }} aria-label="Applications per day over the last 30 days" data-testid="time-chart">
                  <div style={{ width: '100%', height: 260 }}>
                    <ResponsiveContainer>
                      <LineChart data={data.applicationsPerDay} margin={{ left: 0, right: 16 }}>
                        <CartesianGrid strokeDasharray="3 3" />
                        <XAxis dataKey="date" tickFormatter={(value: string) => value.slice(5)} minTickGap={24} />
                        <YAxis allowDecimals={false} width={32} />
                        <Tooltip />
                        <Line type="monotone" dataKey="count" name="Applications" stroke={INK} strokeWidth={2} dot={false} isAnimationActive={false} />
                      </LineChart>
                    </ResponsiveContainer>
                  </div>
                  <figcaption>
                    <Text size="xs" c="dimmed">
                      {data.applicationsPerDay.reduce((sum, day) => sum + day.count, 0)} applications from {data.applicationsPerDay[0]?.date} to{' '}
                      {data.applicationsPerDay.at(-1)?.date}
                    </Text>
                  </figcaption>
                </figure>
              </Card>
            </SimpleGrid>
          </Stack>
        )}
      </LoadState>
    </Page>
  );
}
