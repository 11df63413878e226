-- A flow run waiting at an input node for a person's answer (docs/flows.md, "The input node").
-- RunStatus is shared with scrape_run, which never takes this value.
ALTER TYPE "RunStatus" ADD VALUE IF NOT EXISTS 'waiting_input';
