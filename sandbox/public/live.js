// The script of the showcase's live page (/live/): a file of its own, since the security headers'
// CSP (script-src 'self') runs no inline script. New books come as `book` events; a browser that
// reconnects sends the last id it saw (Last-Event-ID) and gets what it missed.
const list = document.getElementById('live-books');
const status = document.getElementById('live-status');
const source = new EventSource(`/live/events?after=${encodeURIComponent(list.dataset.after ?? '0')}`);

source.addEventListener('open', () => {
  status.textContent = 'Connected: new books appear below as they are added.';
});
source.addEventListener('error', () => {
  status.textContent = source.readyState === EventSource.CLOSED ? 'Disconnected: reload the page.' : 'Reconnecting…';
});
source.addEventListener('book', (event) => {
  const book = JSON.parse(event.data);
  // A book already listed (a reconnect's catch-up overlapping the page) is not added twice.
  if (document.getElementById(`book-${book.id}`) !== null) return;
  const item = document.createElement('li');
  item.id = `book-${book.id}`;
  item.className = 'arrived';
  item.textContent = `${book.id}: ${book.name}`;
  list.append(item);
});
