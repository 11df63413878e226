/**
 * Billing: the balance, credit packs to buy through the configured provider, the payments, the
 * subscription and its plan. With Stripe a purchase goes to its checkout page; with the local
 * provider (development) a pending payment is completed here, by posting the signed webhook the
 * API hands out (POST /api/payments/:id/local-webhook) — what the provider would send.
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorMessage, type Loaded, Loading, Page, Status, formatMoney, formatNumber, formatTime, useLoad } from '../ui';

interface Pack {
  id: string;
  name?: string;
  credits: number;
  priceCents: number;
  currency: string;
}

interface Plan {
  id: string;
  name?: string;
  creditsPerPeriod: number;
  priceCents: number;
  currency: string;
}

interface Payment {
  id: string;
  provider: string;
  purpose: string;
  packId: string | null;
  planId: string | null;
  credits: number;
  amountCents: number;
  currency: string;
  status: string;
  checkoutUrl: string | null;
  failureReason: string | null;
  createdAt: string;
}

interface Subscription {
  id: string;
  planId: string;
  pendingPlanId: string | null;
  pendingPlanFrom: string | null;
  status: string;
  currentPeriod: { number: number; start: string; end: string } | null;
  cancelAt: string | null;
}

/** Completes a local-provider payment as the provider would: its signed webhook, posted to the API. */
async function completeLocally(paymentId: string) {
  const signed = await api<{ url: string; headers: Record<string, string>; body: string }>('POST', `/api/payments/${encodeURIComponent(paymentId)}/local-webhook`, { outcome: 'succeeded' });
  await api('POST', signed.url, signed.body, signed.headers);
}

/** A plan's name from its id (the id when the plan list lacks it; "—" for none). */
type PlanName = (id: string | null) => string;

/** The credit packs on sale, each with its Buy button (disabled while payments are off). */
function CreditPacks({ packs, busy, onBuy }: { packs: Loaded<{ provider: string; packs: Pack[] }>; busy: boolean; onBuy: (pack: Pack) => void }) {
  const provider = packs.data?.provider;
  return (
    <>
      <h2>Credit packs</h2>
      <Loading loaded={packs} />
      {provider === 'none' ? <p>Payments are switched off on this service.</p> : null}
      <ul class="cards">
        {packs.data?.packs.map((pack) => (
          <li key={pack.id} class="card">
            <strong>{pack.name ?? `${formatNumber(pack.credits)} credits`}</strong>
            <span>{formatMoney(pack.priceCents, pack.currency)}</span>
            <button type="button" disabled={busy || provider === 'none'} onClick={() => onBuy(pack)} aria-label={`Buy ${pack.name ?? `${formatNumber(pack.credits)} credits`}`}>
              Buy
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The live subscription: its plan, status, current period, the plan it changes to and when it ends. */
function SubscriptionDetails({ live, planName }: { live: Subscription; planName: PlanName }) {
  return (
    <dl class="details">
      <dt>Plan</dt>
      <dd data-testid="current-plan">{planName(live.planId)}</dd>
      <dt>Status</dt>
      <dd>
        <Status value={live.status} />
      </dd>
      {live.currentPeriod ? (
        <>
          <dt>Current period</dt>
          <dd>
            {formatTime(live.currentPeriod.start)} – {formatTime(live.currentPeriod.end)}
          </dd>
        </>
      ) : null}
      {live.pendingPlanId ? (
        <>
          <dt>Next plan</dt>
          <dd>
            {planName(live.pendingPlanId)} from {formatTime(live.pendingPlanFrom)}
          </dd>
        </>
      ) : null}
      {live.cancelAt ? (
        <>
          <dt>Ends</dt>
          <dd>{formatTime(live.cancelAt)}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** Subscribe, or change the live subscription's plan; cancel an active one at the period's end. */
function PlanForm(props: {
  plans: Plan[];
  live: Subscription | null;
  planId: string;
  busy: boolean;
  onPlanId: (id: string) => void;
  onSubmit: (event: Event) => void;
  onCancel: () => void;
}) {
  const { plans, live, planId, busy } = props;
  return (
    <form class="inline-form" onSubmit={props.onSubmit}>
      <label>
        {live ? 'Change plan to' : 'Plan'}
        <select value={planId || plans[0]?.id} onChange={(e) => props.onPlanId(e.currentTarget.value)}>
          {plans.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {plan.name ?? plan.id} — {formatNumber(plan.creditsPerPeriod)} credits for {formatMoney(plan.priceCents, plan.currency)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy}>
        {live ? 'Change plan' : 'Subscribe'}
      </button>
      {live && live.status === 'active' && !live.cancelAt ? (
        <button type="button" class="secondary" disabled={busy} onClick={props.onCancel}>
          Cancel at period end
        </button>
      ) : null}
    </form>
  );
}

/** The latest payments; a pending one links to its checkout, or (local provider) can be completed here. */
function PaymentsTable({ payments, busy, planName, onComplete }: { payments: Payment[]; busy: boolean; planName: PlanName; onComplete: (payment: Payment) => void }) {
  return (
    <div class="table-wrap">
      <table data-testid="payments-table">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">For</th>
            <th scope="col">Credits</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.id} data-payment-id={payment.id}>
              <td>{formatTime(payment.createdAt)}</td>
              <td>{payment.purpose === 'pack' ? `pack ${payment.packId ?? ''}` : `plan ${planName(payment.planId)}`}</td>
              <td>{formatNumber(payment.credits)}</td>
              <td>{formatMoney(payment.amountCents, payment.currency)}</td>
              <td>
                <Status value={payment.status} /> {payment.failureReason ? <span class="muted">{payment.failureReason}</span> : null}
              </td>
              <td>
                {payment.status === 'pending' && payment.checkoutUrl ? <a href={payment.checkoutUrl}>Pay</a> : null}
                {payment.status === 'pending' && payment.provider === 'local' ? (
                  <button type="button" disabled={busy} onClick={() => onComplete(payment)}>
                    Complete (local provider)
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function BillingPage() {
  const balance = useLoad(() => api<{ remaining: number }>('GET', '/api/users/api-keys'));
  const packs = useLoad(() => api<{ provider: string; packs: Pack[] }>('GET', '/api/payments/packs'));
  const payments = useLoad(() => api<{ payments: Payment[] }>('GET', '/api/payments?limit=20'));
  const plans = useLoad(() => api<{ periodSeconds: number; plans: Plan[] }>('GET', '/api/subscriptions/plans'));
  const subscription = useLoad(() => api<{ subscription: Subscription | null }>('GET', '/api/subscriptions'));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [planId, setPlanId] = useState('');
  const provider = packs.data?.provider;

  const refresh = async () => {
    await Promise.all([balance.reload(), payments.reload(), subscription.reload()]);
  };

  /** A new payment: to the provider's checkout, or (local) left pending for "Complete". */
  const afterPayment = async (payment: Payment | null) => {
    if (payment?.checkoutUrl) {
      location.assign(payment.checkoutUrl);
      return;
    }
    await refresh();
  };

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const buy = (pack: Pack) => act(async () => afterPayment(await api<Payment>('POST', '/api/payments', { packId: pack.id })));
  const complete = (payment: Payment) =>
    act(async () => {
      await completeLocally(payment.id);
      await refresh();
    });
  const live = subscription.data?.subscription ?? null;
  const choosePlan = (event: Event) => {
    event.preventDefault();
    const chosen = planId || plans.data?.plans[0]?.id || '';
    void act(async () => {
      const answer = live
        ? await api<{ payment: Payment | null }>('PATCH', '/api/subscriptions/current', { planId: chosen })
        : await api<{ payment: Payment | null }>('POST', '/api/subscriptions', { planId: chosen });
      await afterPayment(answer.payment);
    });
  };
  const cancelSubscription = () =>
    act(async () => {
      await api('POST', '/api/subscriptions/current/cancel', {});
      await refresh();
    });
  const planName = (id: string | null) => (id ? (plans.data?.plans.find((p) => p.id === id)?.name ?? id) : '—');

  return (
    <Page title="Billing">
      <dl class="figures">
        <div>
          <dt>Balance</dt>
          <dd data-testid="billing-balance">{balance.data ? formatNumber(balance.data.remaining) : '…'}</dd>
        </div>
        <div>
          <dt>Payment provider</dt>
          <dd>{provider ?? '…'}</dd>
        </div>
      </dl>
      <ErrorMessage error={error ?? balance.error} />

      <CreditPacks packs={packs} busy={busy} onBuy={(pack) => void buy(pack)} />

      <h2>Subscription</h2>
      <Loading loaded={subscription} />
      {subscription.data ? live ? <SubscriptionDetails live={live} planName={planName} /> : <p>No subscription.</p> : null}
      {plans.data && (!live || live.status !== 'cancelled') ? (
        <PlanForm plans={plans.data.plans} live={live} planId={planId} busy={busy} onPlanId={setPlanId} onSubmit={choosePlan} onCancel={() => void cancelSubscription()} />
      ) : null}

      <h2>Payments</h2>
      <Loading loaded={payments} />
      {payments.data && payments.data.payments.length === 0 ? <p>No payments yet.</p> : null}
      {payments.data && payments.data.payments.length > 0 ? <PaymentsTable payments={payments.data.payments} busy={busy} planName={planName} onComplete={(payment) => void complete(payment)} /> : null}
    </Page>
  );
}
