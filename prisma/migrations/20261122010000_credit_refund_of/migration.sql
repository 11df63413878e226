-- AlterTable
ALTER TABLE "credit_ledger" ADD COLUMN     "refundOf" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "credit_ledger_refundOf_key" ON "credit_ledger"("refundOf");
