// The sandbox app's config: `npm start` runs `hickory serve sandbox/config.ts`.
import { TransactionHook } from '@hickory/hooks';
import { showcaseTransactions } from './src/store/library.ts';

export default {
  server: { host: '127.0.0.1', port: 8080 },
  app: {
    root: './src/controllers/root.ts#RootController',
    template_path: '%(confdir)s/templates',
    static_root: '%(confdir)s/public',
    // 401: a refused /admin/ request shows the login form (with its 401 status).
    errors: { 401: '/admin/login', 404: '/error/404', 500: '/error/500' },
    extra_template_vars: { site: 'Hickory sandbox' },
    // One transaction per request on the showcase's SQLite database (opened on first use).
    hooks: [new TransactionHook(showcaseTransactions)],
  },
};
