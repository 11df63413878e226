/** Notifications: newest first, the unread count, mark one or all read. */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorMessage, Loading, Page, formatTime, useLoad } from '../ui';

interface Notification {
  id: string;
  type: string;
  title: string;
  data: Record<string, unknown>;
  read: boolean;
  createdAt: string;
}

export function NotificationsPage({ onChange }: { onChange: () => void }) {
  const list = useLoad(() => api<{ notifications: Notification[]; unreadCount: number }>('GET', '/api/notifications?limit=50'));
  const [error, setError] = useState<unknown>(null);
  const act = async (path: string) => {
    setError(null);
    try {
      await api('POST', path, {});
      await list.reload();
      onChange();
    } catch (e) {
      setError(e);
    }
  };
  const unread = list.data?.unreadCount ?? 0;
  return (
    <Page
      title="Notifications"
      actions={
        unread > 0 ? (
          <button type="button" class="secondary" onClick={() => void act('/api/notifications/read-all')}>
            Mark all read
          </button>
        ) : null
      }
    >
      <Loading loaded={list} />
      <ErrorMessage error={error} />
      {list.data ? <p data-testid="unread-summary">{unread === 0 ? 'Nothing unread.' : `${unread} unread.`}</p> : null}
      <ul class="notifications">
        {list.data?.notifications.map((n) => (
          <li key={n.id} class={n.read ? 'read' : 'unread'} data-notification-type={n.type}>
            <div>
              <strong>{n.title}</strong> <span class="muted">{formatTime(n.createdAt)}</span>
            </div>
            {!n.read ? (
              <button type="button" class="secondary" onClick={() => void act(`/api/notifications/${encodeURIComponent(n.id)}/read`)} aria-label={`Mark “${n.title}” read`}>
                Mark read
              </button>
            ) : (
              <span class="muted">read</span>
            )}
          </li>
        ))}
      </ul>
    </Page>
  );
}
