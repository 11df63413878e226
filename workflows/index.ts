// Every workflow the workers register. Exports only.
export { echoWorkflow } from './echo.workflow';
export { scrapeWorkflow } from './scrape.workflow';
export { subscriptionRefillWorkflow } from './subscription.workflow';
