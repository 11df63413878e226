-- AlterTable
ALTER TABLE "scrape_run" ADD COLUMN     "flowItemIndex" INTEGER,
ADD COLUMN     "flowNodeId" TEXT,
ADD COLUMN     "flowRunId" TEXT;

-- CreateTable
CREATE TABLE "flow" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "definition" JSONB NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL,
    "deletedAt" TIMESTAMPTZ(6),

    CONSTRAINT "flow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "flow_run" (
    "id" TEXT NOT NULL,
    "flowId" TEXT NOT NULL,
    "flowVersion" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "userId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "workflowId" TEXT NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "error" JSONB,
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(6),
    "finishedAt" TIMESTAMPTZ(6),

    CONSTRAINT "flow_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "flow_run_node" (
    "runId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "output" JSONB,
    "error" JSONB,
    "items" JSONB,
    "startedAt" TIMESTAMPTZ(6),
    "finishedAt" TIMESTAMPTZ(6),

    CONSTRAINT "flow_run_node_pkey" PRIMARY KEY ("runId","nodeId")
);

-- CreateIndex
CREATE INDEX "scrape_run_flowRunId_flowNodeId_flowItemIndex_idx" ON "scrape_run"("flowRunId", "flowNodeId", "flowItemIndex");

-- CreateIndex
CREATE INDEX "flow_userId_createdAt_idx" ON "flow"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "flow_run_workflowId_key" ON "flow_run"("workflowId");

-- CreateIndex
CREATE INDEX "flow_run_flowId_createdAt_idx" ON "flow_run"("flowId", "createdAt");

-- CreateIndex
CREATE INDEX "flow_run_userId_createdAt_idx" ON "flow_run"("userId", "createdAt");

-- AddForeignKey
ALTER TABLE "flow_run" ADD CONSTRAINT "flow_run_flowId_fkey" FOREIGN KEY ("flowId") REFERENCES "flow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_run_node" ADD CONSTRAINT "flow_run_node_runId_fkey" FOREIGN KEY ("runId") REFERENCES "flow_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
