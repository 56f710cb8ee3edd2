// The sandbox app's config: `npm start` runs `hickory serve sandbox/config.ts`.
export default {
  server: { host: '127.0.0.1', port: 8080 },
  app: {
    root: './src/controllers/root.ts#RootController',
    template_path: '%(confdir)s/templates',
    static_root: '%(confdir)s/public',
    errors: { 404: '/error/404', 500: '/error/500' },
    extra_template_vars: { site: 'Hickory sandbox' },
  },
};
