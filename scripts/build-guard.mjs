// `npm run build:guard`: compiles src/guard/SwapGuard.sol with the pinned compiler
// (the `solc` package, 0.8.30) and writes what ships with it:
// - SwapGuard.standard-input.json: the compiler's standard-JSON input, exactly as compiled here, for
//   anyone to verify the source on an explorer (or to recompile it);
// - swapGuardInitCode.ts: the creation bytecode (its literal, between the markers);
// - swapGuard.ts: the guard's and its executor's addresses and runtime code hashes (their literals).
// swapGuard.test.ts recompiles the shipped input and checks every one of these values, so a change to
// the contract without a rebuild fails the tests. `--check` writes nothing and exits 1 when a file is
// out of date.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getAddress, getContractAddress, keccak256, pad, toHex } from 'viem'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dir = join(root, 'src', 'guard')
// The guard's runtime constants (address, code hashes) live with the executor that checks them.
const constantsDir = join(root, 'src', 'core', 'execute', 'guard')
const check = process.argv.includes('--check')

const solcVersion = require('solc/package.json').version
if (solcVersion !== '0.8.30') throw new Error(`solc ${solcVersion} installed; the guard is built with 0.8.30`)
const solc = require('solc')

const salt = keccak256(toHex('token-swap-hooks.SwapGuard.v2'))
const deterministicDeployer = '0x4e59b44847b379578588920cA78FbF26c0B4956C'

/** The input, byte for byte as shipped: sources, then the settings the bytes are built with. */
const input = {
  language: 'Solidity',
  sources: { 'SwapGuard.sol': { content: readFileSync(join(dir, 'SwapGuard.sol'), 'utf8') } },
  settings: {
    evmVersion: 'paris',
    viaIR: true,
    optimizer: { enabled: true, runs: 200 },
    metadata: { appendCBOR: false },
    outputSelection: {
      '*': { '*': ['abi', 'storageLayout', 'evm.bytecode.object', 'evm.deployedBytecode'] },
    },
  },
}
const inputJson = `${JSON.stringify(input, null, 2)}\n`
const output = JSON.parse(solc.compile(JSON.stringify(input)))
const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
if (errors.length) throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
const { SwapGuard, SwapGuardExecutor } = output.contracts['SwapGuard.sol']

const initCode = `0x${SwapGuard.evm.bytecode.object}`
const guard = getContractAddress({ opcode: 'CREATE2', from: deterministicDeployer, salt, bytecode: initCode })
const executor = getContractAddress({ from: guard, nonce: 1n })

/** The runtime code as deployed: each immutable (an address) written where the compiler left room. */
function runtime(contract, value) {
  const code = Buffer.from(contract.evm.deployedBytecode.object, 'hex')
  const references = Object.values(contract.evm.deployedBytecode.immutableReferences ?? {}).flat()
  if (references.length === 0) throw new Error('expected an immutable')
  for (const { start, length } of references)
    Buffer.from(pad(value, { size: length }).slice(2), 'hex').copy(code, start)
  return `0x${code.toString('hex')}`
}
const guardCodeHash = keccak256(runtime(SwapGuard, executor))
const executorCodeHash = keccak256(runtime(SwapGuardExecutor, guard))

const stale = []
function write(file, content, into = dir) {
  const path = join(into, file)
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return
  stale.push(file)
  if (!check) writeFileSync(path, content)
}

/** Replaces the literal of `export const <name>…= '<literal>'` in `source`. */
function setLiteral(source, name, value) {
  const pattern = new RegExp(`(export const ${name}: \\w+ =\\s*')0x[0-9a-fA-F]*(')`)
  if (!pattern.test(source)) throw new Error(`no literal for ${name}`)
  return source.replace(pattern, `$1${value}$2`)
}

write('SwapGuard.standard-input.json', inputJson)

const initCodeFile = readFileSync(join(dir, 'swapGuardInitCode.ts'), 'utf8')
const lines = initCode
  .slice(2)
  .match(/.{1,100}/g)
  .map((line) => `  '${line}'`)
  .join(' +\n')
write(
  'swapGuardInitCode.ts',
  setLiteral(
    initCodeFile.replace(/(export const swapGuardInitCode: Hex = `0x\$\{\n)[\s\S]*?(\n\}`)/, `$1${lines}$2`),
    'swapGuardSalt',
    salt,
  ),
)

let constants = readFileSync(join(constantsDir, 'swapGuard.ts'), 'utf8')
constants = setLiteral(constants, 'swapGuardAddress', getAddress(guard))
constants = setLiteral(constants, 'swapGuardExecutorAddress', getAddress(executor))
constants = setLiteral(constants, 'swapGuardCodeHash', guardCodeHash)
constants = setLiteral(constants, 'swapGuardExecutorCodeHash', executorCodeHash)
write('swapGuard.ts', constants, constantsDir)

console.log(
  [
    `SwapGuard          ${getAddress(guard)}  code hash ${guardCodeHash}`,
    `SwapGuardExecutor  ${getAddress(executor)}  code hash ${executorCodeHash}`,
    `init code ${(initCode.length - 2) / 2} bytes, runtime ${SwapGuard.evm.deployedBytecode.object.length / 2} + ${SwapGuardExecutor.evm.deployedBytecode.object.length / 2} bytes, salt ${salt}`,
    stale.length ? `${check ? 'out of date' : 'written'}: ${stale.join(', ')}` : 'up to date',
  ].join('\n'),
)
if (check && stale.length) process.exitCode = 1
