// Every workflow the workers register. Exports only.
export { echoWorkflow } from './echo.workflow';
export { scrapeBatchWorkflow, scrapeLaneWorkflow, scrapeWorkflow } from './scrape.workflow';
export { mapWorkflow } from './map.workflow';
export { flowWorkflow, foreachWorkflow } from './flow.workflow';
export { subscriptionEndWorkflow, subscriptionRefillWorkflow } from './subscription.workflow';
export { webhookDeliveryWorkflow } from './webhook.workflow';
export { crawlWorkflow } from './crawl.workflow';
export { monitorCheckSettleWorkflow, monitorCheckWorkflow } from './monitor.workflow';
export { extractWorkflow } from './extract.workflow';
