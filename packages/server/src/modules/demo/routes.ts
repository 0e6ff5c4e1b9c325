import type { FastifyPluginAsync } from 'fastify';
import { DEMO_PROJECT_KEY } from './seed.js';

const plan = (name: string, price: string, points: string[], id: string) => `
  <article class="plan" id="plan-${id}">
    <h3>${name}</h3>
    <p class="price">${price}<span>/month</span></p>
    <ul>${points.map((p) => `<li>${p}</li>`).join('')}</ul>
    <button type="button">Choose ${name}</button>
  </article>`;

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Northwind Analytics · pricing (feedback demo)</title>
<style>
  body { font: 16px/1.55 system-ui, sans-serif; margin: 0; color: #1f2937; background: #f9fafb; }
  nav { display: flex; gap: 1.5rem; align-items: center; padding: 1rem 2rem; background: #fff; border-bottom: 1px solid #e5e7eb; }
  nav strong { margin-right: auto; font-size: 1.1rem; }
  nav a { color: #4b5563; text-decoration: none; }
  main { max-width: 60rem; margin: 0 auto; padding: 2.5rem 1.5rem 6rem; }
  .hero { text-align: center; margin-bottom: 2.5rem; }
  .hero h1 { font-size: 2.4rem; margin: 0 0 .5rem; }
  .hero p { color: #6b7280; margin: 0; }
  .plans { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 1.25rem; }
  .plan { background: #fff; border: 1px solid #e5e7eb; border-radius: 12px; padding: 1.5rem; }
  .plan h3 { margin: 0; }
  .price { font-size: 2rem; font-weight: 700; margin: .5rem 0; }
  .price span { font-size: 1rem; color: #6b7280; font-weight: 400; }
  .plan ul { padding-left: 1.1rem; color: #4b5563; }
  .plan button { width: 100%; padding: .6rem; border: 0; border-radius: 8px; background: #111827; color: #fff; font-weight: 600; }
  .guide { margin-top: 3rem; background: #eef2ff; border: 1px solid #c7d2fe; border-radius: 12px; padding: 1.25rem 1.5rem; }
  code { background: #fff; padding: .1rem .3rem; border-radius: 4px; }
</style>
</head>
<body>
<nav><strong>Northwind Analytics</strong><a href="#">Product</a><a href="#">Pricing</a><a href="#">Docs</a></nav>
<main>
  <section class="hero">
    <h1>Simple pricing for every team</h1>
    <p>Start free, upgrade when your dashboards do.</p>
  </section>
  <section class="plans">
    ${plan('Starter', '$0', ['3 dashboards', '7-day history', 'Community support'], 'starter')}
    ${plan('Team', '$49', ['Unlimited dashboards', '1-year history', 'Alerts by e-mail'], 'team')}
    ${plan('Business', '$199', ['SSO and audit log', 'Unlimited history', 'Priority support'], 'business')}
  </section>
  <section class="guide" id="demo-guide">
    <h2>This is the feedback demo</h2>
    <p>The button at the bottom right is the feedback widget of project <code>${DEMO_PROJECT_KEY}</code>.
    Sign in with the demo admin's e-mail and password that the server printed when it first started,
    then pin a comment on anything on this page with <strong>+ New</strong>.</p>
    <p>Apply it from a repository with <code>svc-cli apply &lt;id&gt; --mark</code>, report a deploy with
    <code>svc-cli status --deployed</code>, and watch it go Live. The API is described at <a href="/docs">/docs</a>.</p>
  </section>
</main>
<script src="/widget.js" data-project-key="${DEMO_PROJECT_KEY}" async></script>
</body>
</html>
`;

/** The demo page: a small product page with the widget embedded, served by the server itself. */
export const demoRoutes: FastifyPluginAsync = async (app) => {
  app.get('/demo', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  );
};
