import { useState } from 'react'
import { createFailureReport } from '../../src/exports/core.js'
import { type UseExecuteSwapReturnType, useSwapClient } from '../../src/exports/index.js'
import { simulatedChainId } from './simulatedWallet.js'

/**
 * "Copy report" under a failed swap: `createFailureReport` with the client (its redactor), the
 * simulated wallet's chain and the flow's last step, copied as JSON; then "Copied", or why not.
 */
export function CopyReport({ error, step }: { error: unknown; step: UseExecuteSwapReturnType['step'] }) {
  const client = useSwapClient()
  const [status, setStatus] = useState<string>()
  const copy = () =>
    navigator.clipboard
      .writeText(
        JSON.stringify(createFailureReport(error, { client, chainId: simulatedChainId, step }), null, 2),
      )
      .then(
        () => setStatus('Copied'),
        (reason: unknown) => setStatus(`Copy failed: ${(reason as Error | undefined)?.message ?? reason}`),
      )
  return (
    <p style={{ margin: '4px 0', fontSize: 12 }}>
      <button type="button" onClick={copy}>
        Copy report
      </button>{' '}
      {status && <span role="status">{status}</span>}
    </p>
  )
}
