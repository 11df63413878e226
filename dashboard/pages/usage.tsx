/**
 * Usage: the balance, requests per day by outcome and credits per day by mode (two stacked bar
 * charts, SVG, with the same figures in a table), and the per-key breakdown — all from
 * GET /api/users/api-keys/stats.
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Loading, Page, formatNumber, useLoad } from '../ui';

interface Usage {
  requests: number;
  creditsSpent: number;
  byMode: Record<string, { requests: number; creditsSpent: number }>;
  byOutcome: Record<string, number>;
}

interface Stats {
  window: { days: number; from: string; to: string };
  remaining: number;
  totals: Usage;
  keys: Array<Usage & { id: string; name: string | null; start: string | null; enabled: boolean; deleted?: boolean }>;
  withoutKey: Usage;
  days: Array<Usage & { date: string }>;
}

interface Series {
  name: string;
  color: string;
  value: (day: Usage) => number;
}

const OUTCOMES: Series[] = [
  { name: 'succeeded', color: '#2f855a', value: (d) => d.byOutcome.succeeded ?? 0 },
  { name: 'cached', color: '#319795', value: (d) => d.byOutcome.cached ?? 0 },
  { name: 'failed', color: '#c53030', value: (d) => d.byOutcome.failed ?? 0 },
  { name: 'cancelled', color: '#718096', value: (d) => d.byOutcome.cancelled ?? 0 },
  { name: 'in progress', color: '#3182ce', value: (d) => (d.byOutcome.queued ?? 0) + (d.byOutcome.running ?? 0) },
];

const MODE_COLORS: Record<string, string> = { http: '#2b6cb0', browser: '#b7791f', other: '#718096' };

function modeSeries(days: Usage[]): Series[] {
  const modes = [...new Set(days.flatMap((d) => Object.keys(d.byMode)))].sort();
  return (modes.length ? modes : ['http']).map((mode) => ({ name: mode, color: MODE_COLORS[mode] ?? '#553c9a', value: (d) => d.byMode[mode]?.creditsSpent ?? 0 }));
}

/** Stacked bars, one per day; scales to its container's width (viewBox). */
function BarChart({ id, title, days, series, unit }: { id: string; title: string; days: Stats['days']; series: Series[]; unit: string }) {
  const width = 640;
  const height = 180;
  const left = 36;
  const bottom = 22;
  const top = 8;
  const totals = days.map((d) => series.reduce((sum, s) => sum + Math.max(0, s.value(d)), 0));
  const max = Math.max(1, ...totals);
  const slot = (width - left) / days.length;
  const bar = Math.max(2, slot * 0.7);
  const y = (v: number) => top + (height - top - bottom) * (1 - v / max);
  const total = totals.reduce((a, b) => a + b, 0);
  return (
    <figure class="chart" data-chart={id}>
      <figcaption>
        <strong>{title}</strong>
        <span class="legend">
          {series.map((s) => (
            <span key={s.name}>
              <i style={{ background: s.color }} aria-hidden="true" /> {s.name}
            </span>
          ))}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}: ${formatNumber(total)} ${unit} over ${days.length} days`}>
        <line x1={left} x2={width} y1={y(0)} y2={y(0)} stroke="#a0aec0" />
        <text x={left - 6} y={y(max) + 4} text-anchor="end" class="axis">
          {formatNumber(max)}
        </text>
        <text x={left - 6} y={y(0)} text-anchor="end" class="axis">
          0
        </text>
        {days.map((d, i) => {
          let base = 0;
          const x = left + i * slot + (slot - bar) / 2;
          return (
            <g key={d.date} data-day={d.date}>
              {series.map((s) => {
                const v = Math.max(0, s.value(d));
                if (v === 0) return null;
                const rect = <rect key={s.name} data-series={s.name} data-value={v} x={x} y={y(base + v)} width={bar} height={y(base) - y(base + v)} fill={s.color}>
                  <title>{`${d.date}: ${formatNumber(v)} ${s.name}`}</title>
                </rect>;
                base += v;
                return rect;
              })}
              {i % Math.ceil(days.length / 7) === 0 ? (
                <text x={x + bar / 2} y={height - 6} text-anchor="middle" class="axis">
                  {d.date.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

const outcome = (u: Usage, name: string) => u.byOutcome[name] ?? 0;

export function UsagePage() {
  const [days, setDays] = useState(14);
  const stats = useLoad(() => api<Stats>('GET', `/api/users/api-keys/stats?days=${days}`), [days]);
  const data = stats.data;
  const active = data ? data.days.filter((d) => d.requests > 0 || d.creditsSpent !== 0) : [];
  return (
    <Page
      title="Usage"
      actions={
        <label class="inline">
          Period
          <select value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))}>
            <option value="7">7 days</option>
            <option value="14">14 days</option>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
          </select>
        </label>
      }
    >
      <Loading loaded={stats} />
      {data ? (
        <>
          <dl class="figures">
            <div>
              <dt>Balance</dt>
              <dd data-testid="balance">{formatNumber(data.remaining)}</dd>
            </div>
            <div>
              <dt>Requests</dt>
              <dd data-testid="total-requests">{formatNumber(data.totals.requests)}</dd>
            </div>
            <div>
              <dt>Credits spent</dt>
              <dd data-testid="total-credits">{formatNumber(data.totals.creditsSpent)}</dd>
            </div>
            <div>
              <dt>Failed</dt>
              <dd>{formatNumber(outcome(data.totals, 'failed'))}</dd>
            </div>
          </dl>
          <div class="charts">
            <BarChart id="requests" title="Requests per day, by outcome" days={data.days} series={OUTCOMES} unit="requests" />
            <BarChart id="credits" title="Credits per day, by mode" days={data.days} series={modeSeries(data.days)} unit="credits" />
          </div>
          <h2>Days with activity</h2>
          {active.length === 0 ? (
            <p>No requests in these {data.window.days} days.</p>
          ) : (
            <div class="table-wrap">
              <table data-testid="days-table">
                <thead>
                  <tr>
                    <th scope="col">Day (UTC)</th>
                    <th scope="col">Requests</th>
                    <th scope="col">Succeeded</th>
                    <th scope="col">Failed</th>
                    <th scope="col">Credits</th>
                    <th scope="col">By mode</th>
                  </tr>
                </thead>
                <tbody>
                  {active.map((d) => (
                    <tr key={d.date} data-day={d.date}>
                      <th scope="row">{d.date}</th>
                      <td>{formatNumber(d.requests)}</td>
                      <td>{formatNumber(outcome(d, 'succeeded'))}</td>
                      <td>{formatNumber(outcome(d, 'failed'))}</td>
                      <td>{formatNumber(d.creditsSpent)}</td>
                      <td>
                        {Object.entries(d.byMode)
                          .map(([mode, m]) => `${mode}: ${m.requests} req, ${m.creditsSpent} cr`)
                          .join(' · ')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h2>Per key</h2>
          <div class="table-wrap">
            <table data-testid="keys-usage">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Requests</th>
                  <th scope="col">Succeeded</th>
                  <th scope="col">Failed</th>
                  <th scope="col">Credits</th>
                </tr>
              </thead>
              <tbody>
                {data.keys.map((k) => (
                  <tr key={k.id}>
                    <th scope="row">
                      {k.name ?? '(deleted key)'} {k.start ? <code>{k.start}…</code> : null} {k.enabled ? null : <span class="muted">(revoked)</span>}
                    </th>
                    <td>{formatNumber(k.requests)}</td>
                    <td>{formatNumber(outcome(k, 'succeeded'))}</td>
                    <td>{formatNumber(outcome(k, 'failed'))}</td>
                    <td>{formatNumber(k.creditsSpent)}</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">Signed-in session (flows)</th>
                  <td>{formatNumber(data.withoutKey.requests)}</td>
                  <td>{formatNumber(outcome(data.withoutKey, 'succeeded'))}</td>
                  <td>{formatNumber(outcome(data.withoutKey, 'failed'))}</td>
                  <td>{formatNumber(data.withoutKey.creditsSpent)}</td>
                </tr>
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </Page>
  );
}
