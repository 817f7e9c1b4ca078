import { Button, Card, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, call, useLoad, type Schemas } from '../api';
import { useQueryParam } from '../router';
import { formatDays, formatNumber, formatPercent, plural, SOURCE_LABELS, STAGE_LABELS, type Source } from '../labels';
import { Empty, FirstStep, LoadState, Page, PageHeader } from '../ui';
import { ListingPicker, type PickedListing } from '../listing-picker';
import { ExploreWithSampleData } from '../sample-data';

const INK = '#3b4bb0';

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <Card withBorder padding="md" data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value}
      </Text>
    </Card>
  );
}

type Overview = Schemas['AnalyticsOverview'];
const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_DAYS = 30;
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);
const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

/** The figures as CSV (one "figure,value" row each), for a spreadsheet. */
export function overviewCsv(data: Overview, from: string, to: string, listing: string | undefined): string {
  const quote = (value: string | number) => (/[",\n]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value));
  const rows: Array<[string, string | number]> = [
    ['Period from', from],
    ['Period to', to],
    ['Job listing', listing ?? 'All listings'],
    ['Applications', data.totalApplications],
    ['Hires', data.hires],
    ['Median days to hire', data.medianDaysToHire === null ? '' : Math.round(data.medianDaysToHire * 10) / 10],
    ...data.funnel.map((step): [string, number] => [`Reached ${STAGE_LABELS[step.stage]}`, step.count]),
    ...data.funnel.filter((step) => step.conversionRate !== null).map((step): [string, string] => [`Conversion into ${STAGE_LABELS[step.stage]}`, formatPercent(step.conversionRate)]),
    ...Object.entries(data.applicationsByStage).map(([stage, count]): [string, number] => [`Now in ${STAGE_LABELS[stage as keyof typeof STAGE_LABELS] ?? stage}`, count]),
    ...data.rejectionsByReason.map((row): [string, number] => [`${STAGE_LABELS[row.status]}: ${row.reason?.name ?? 'no reason given'}`, row.count]),
    ...bySource(data).map(([source, count]): [string, number] => [`Source ${SOURCE_LABELS[source]}`, count]),
    ...data.applicationsPerDay.map((day): [string, number] => [`Applications on ${day.date}`, day.count]),
  ];
  return ['Figure,Value', ...rows.map(([name, value]) => `${quote(name)},${quote(value)}`)].join('\r\n') + '\r\n';
}

/** Every source with its applications, most first (then by name). */
function bySource(data: Overview): Array<[Source, number]> {
  return (Object.entries(data.applicationsBySource) as Array<[Source, number]>).sort(
    ([a, m], [b, n]) => n - m || SOURCE_LABELS[a].localeCompare(SOURCE_LABELS[b]),
  );
}

/** Applications by source as a list of bars, each bar's length its share of the largest. */
function Sources({ data }: { data: Overview }) {
  const rows = bySource(data).filter(([, count]) => count > 0);
  if (rows.length === 0) return <Empty>No application in this period.</Empty>;
  const most = rows[0][1];
  return (
    <Table data-testid="applications-by-source" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="35%">Source</Table.Th>
          <Table.Th>Applications</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map(([source, count]) => (
          <Table.Tr key={source}>
            <Table.Td>{SOURCE_LABELS[source]}</Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <div aria-hidden style={{ height: 10, width: `${Math.max(2, (count / most) * 70)}%`, background: INK, borderRadius: 3 }} />
                <Text size="sm">
                  {formatNumber(count)} ({formatPercent(count / data.totalApplications)})
                </Text>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function OverviewPage() {
  const [picked, setPicked] = useState<PickedListing | null>(null);
  const listing = picked?.id;
  // One period drives every figure and the chart: the last 30 days unless the address names one, shown in the fields.
  const [fromParam, setFromParam] = useQueryParam('from');
  const [toParam, setToParam] = useQueryParam('to');
  const [today] = useState(() => utcDay(Date.now()));
  const to = isDay(toParam) ? toParam : today;
  const from = isDay(fromParam) ? fromParam : utcDay(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS);
  const setFrom = (value: string) => setFromParam(isDay(value) ? value : null);
  const setTo = (value: string) => setToParam(isDay(value) ? value : null);
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
        <TextInput label="From" type="date" value={from} max={to} onChange={(event) => setFrom(event.currentTarget.value)} w={170} />
        <TextInput label="To" type="date" value={to} min={from} onChange={(event) => setTo(event.currentTarget.value)} w={170} />
        {overview.data && (
          <Button variant="default" onClick={() => download(`overview-${from}-to-${to}.csv`, overviewCsv(overview.data!, from, to, picked?.label))}>
            Export as CSV
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" data-testid="period">
        Applications submitted from {from} to {to}
        {picked ? ` for ${picked.label}` : ''}. Active listings are counted as they are now.
      </Text>
      <LoadState state={overview} label="Loading the overview">
        {(data) => (
          <Stack>
            {Object.values(data.jobListingsByStatus).every((count) => count === 0) && !listing && (
              <Card withBorder>
                <FirstStep testId="first-step" action="Create your first job listing" to="/job-listings">
                  Your company has no job listings yet. Create one and publish it: applications then arrive in the pipeline, and these figures fill in.
                </FirstStep>
                <ExploreWithSampleData />
              </Card>
            )}
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Stat label="Applications" value={formatNumber(data.totalApplications)} />
              <Stat label="Hires" value={formatNumber(data.hires)} />
              <Stat label="Median time to hire" value={formatDays(data.medianDaysToHire)} />
              <Stat label="Active listings now" value={formatNumber(data.jobListingsByStatus.ACTIVE)} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Stage funnel
                </Title>
                {data.totalApplications === 0 ? (
                  <FirstStep action="Add candidates" to="/candidates">
                    No applications in this period. Choose a longer period, share a published listing, or add candidates to a listing.
                  </FirstStep>
                ) : (
                  <figure style={{ margin: 0 }} aria-label="Stage funnel: applications that reached each stage" data-testid="funnel-chart">
                    <div style={{ width: '100%', height: 260 }}>
                      <ResponsiveContainer>
                        <BarChart data={data.funnel.map((step) => ({ stage: STAGE_LABELS[step.stage], count: step.count }))} layout="vertical" margin={{ left: 16, right: 32 }}>
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
                        {data.funnel.map((step) => `${STAGE_LABELS[step.stage]}: ${step.count}${step.conversionRate === null ? '' : ` (${formatPercent(step.conversionRate)})`}`).join(' · ')}
                      </Text>
                    </figcaption>
                  </figure>
                )}
              </Card>
              <Card withBorder>
                <Title order={2} size="h4" mb="sm">
                  Applications over time
                </Title>
                <figure style={{ margin: 0 }} aria-label={`Applications per day from ${from} to ${to}`} data-testid="time-chart">
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
                      {plural(data.applicationsPerDay.reduce((sum, day) => sum + day.count, 0), 'application')} from {data.applicationsPerDay[0]?.date} to{' '}
                      {data.applicationsPerDay.at(-1)?.date}
                    </Text>
                  </figcaption>
                </figure>
              </Card>
            </SimpleGrid>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                Where applications came from
              </Title>
              <Sources data={data} />
            </Card>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                Rejections and withdrawals by reason
              </Title>
              {data.rejectionsByReason.length === 0 ? (
                <Empty>No application in this period was rejected or withdrawn.</Empty>
              ) : (
                <Table data-testid="rejections-by-reason">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Stage</Table.Th>
                      <Table.Th>Reason</Table.Th>
                      <Table.Th>Applications</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.rejectionsByReason.map((row) => (
                      <Table.Tr key={`${row.status}-${row.reason?.id ?? 'none'}`}>
                        <Table.Td>{STAGE_LABELS[row.status]}</Table.Td>
                        <Table.Td>{row.reason?.name ?? 'No reason given'}</Table.Td>
                        <Table.Td>{formatNumber(row.count)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Card>
          </Stack>
        )}
      </LoadState>
    </Page>
  );
}
