import { spawn } from 'node:child_process';
import os from 'node:os';
import { isSea } from 'node:sea';
import { escapeLogText } from '@flaglight/core';
import { Command, Option } from 'commander';
import { probeCompanion } from './bridge/local-bridge.js';
import { startCompanion, type Companion } from './companion.js';
import { parseMqttSettings } from './home/mqtt-options.js';
import { linkDevice } from './link/device-flow.js';
import { createServerApi } from './link/server-api.js';
import {
  GOVEE_DEFAULT_PORTS,
  isLoopbackServer,
  OptionError,
  parseGoveePorts,
  parseGoveeTargets,
  parseHueBridges,
  parseLifxTargets,
  parseNanoleafAddresses,
  parseWledAddresses,
  resolveCommon,
  resolveHomeAssistant,
  resolveF1Live,
  type CommonFlags,
  type RunFlags,
} from './options.js';
import { selfCommand, setAutostart } from './system/autostart.js';
import { openBrowser } from './system/open-browser.js';
import { currentPlatform } from './system/paths.js';
import { StateFile } from './system/state-file.js';
import { installUpdate } from './update/install.js';
import type { Manifest } from './update/manifest.js';
import { noteStart, rollBackAtStart, UPDATED_FROM_ENV } from './update/restart-guard.js';
import { APP_VERSION } from './version.js';

/** A line for the terminal, escaped like the log's: it may quote names a device or the server gave. */
function say(line: string, stream: 'out' | 'err' = 'out'): void {
  (stream === 'out' ? console.log : console.error)(escapeLogText(line));
}

function common(command: Command): Command {
  return command
    .option('--server <url>', 'the Flaglight server (env FLAGLIGHT_SERVER)')
    .option(
      '--demo',
      'follow a local demo server (http://127.0.0.1:3000 unless --server) and its LAN simulator',
    )
    .option('--data-dir <dir>', 'where the link and settings are kept (env FLAGLIGHT_DATA_DIR)')
    .option('--port <port>', 'the local bridge port (47920)');
}

async function run(flags: RunFlags): Promise<void> {
  const base = resolveCommon(flags);
  const lifxTargets = parseLifxTargets(flags.lifxTargets ?? process.env.FLAGLIGHT_LIFX_TARGETS ?? '');
  const goveePortsText = flags.goveePorts ?? process.env.FLAGLIGHT_GOVEE_PORTS;
  const goveePorts = goveePortsText ? parseGoveePorts(goveePortsText) : GOVEE_DEFAULT_PORTS;
  const goveeTargets = parseGoveeTargets(
    flags.goveeTargets ?? process.env.FLAGLIGHT_GOVEE_TARGETS ?? '',
    goveePorts.scan,
  );
  const hueBridges = parseHueBridges(flags.hueBridge ?? process.env.FLAGLIGHT_HUE_BRIDGES ?? '');
  const nanoleaf = parseNanoleafAddresses(flags.nanoleaf ?? process.env.FLAGLIGHT_NANOLEAF ?? '');
  const wled = parseWledAddresses(flags.wled ?? process.env.FLAGLIGHT_WLED ?? '');
  // The real LAN scan (broadcast, mDNS) only for a real server, never in demo mode or tests.
  const lanScan = flags.lanScan ?? (!base.demo && !isLoopbackServer(base.server));
  const background = Boolean(flags.background);
  const f1Live = resolveF1Live(flags.f1Live, base);
  const mqtt = parseMqttSettings(flags.mqtt);
  guardUpdatedVersion(base.dataDir);
  // The install hands over to the new file with this process's own arguments; a rollback starts
  // this version again in this process.
  const install = (file: string, manifest: Manifest) =>
    installUpdate(file, manifest, {
      executable: process.execPath,
      args: process.argv.slice(2),
      port: current?.bridge.port ?? base.port,
      dataDir: base.dataDir,
      running: APP_VERSION,
      log: current!.log,
      stopHere: () => current!.close(),
      restartHere: async () => {
        const again = await launch();
        if (again.kind === 'started') current = again.companion;
      },
      exit: () => process.exit(0),
    });
  const launch = () =>
    startCompanion({
      ...base,
      openBrowser: flags.browser !== false,
      lifxTargets,
      goveeTargets,
      goveePorts,
      hueBridges,
      nanoleaf,
      wled,
      homeAssistant: resolveHomeAssistant(flags),
      lanScan,
      f1Live,
      mqtt,
      console: !background || Boolean(process.stdout.isTTY),
      logToFile: background,
      ...(flags.name ? { deviceName: flags.name } : {}),
      update: {
        enabled: flags.update !== false && process.env.FLAGLIGHT_NO_UPDATE !== '1',
        // Only the packaged executable replaces itself; under tsx the check still runs.
        executable: isSea() ? process.execPath : null,
        install,
      },
    });
  let current: Companion | null = null;
  const started = await launch();
  if (started.kind === 'already-running') {
    // A second start (the Start-menu shortcut): show the running companion's status page and exit.
    console.log(`Flaglight Companion is already running: ${started.url}`);
    if (flags.browser !== false) await openBrowser(started.url);
    process.exit(0);
  }
  current = started.companion;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing || !current) return;
    closing = true;
    const companion = current;
    companion.log.info(`Stopping (${signal})`);
    void companion.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('uncaughtException', (error) => {
    // One bad packet or bulb must not stop the lights: log it and go on.
    current?.log.error(`Unexpected error: ${error.stack ?? error.message}`);
  });
  process.on('unhandledRejection', (reason) => {
    current?.log.error(
      `Unexpected error: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );
  });
}

/**
 * A version just installed by an update that keeps exiting (three starts by something else than the
 * handover within five minutes): the previous file goes back and starts instead of this one.
 */
function guardUpdatedVersion(dataDir: string): void {
  const store = new StateFile(dataDir);
  store.load();
  const outcome = noteStart(store, {
    running: APP_VERSION,
    byHandover: process.env[UPDATED_FROM_ENV] !== undefined,
    now: Date.now(),
  });
  if (outcome.kind !== 'roll-back' || !isSea()) return;
  say(`Update to ${outcome.version} failed and was rolled back: starting ${outcome.from} again.`, 'err');
  rollBackAtStart(store, process.execPath, outcome);
  const { [UPDATED_FROM_ENV]: _from, ...env } = process.env;
  spawn(process.execPath, process.argv.slice(2), { detached: true, stdio: 'inherit', env }).unref();
  process.exit(0);
}

async function status(flags: CommonFlags & { json?: boolean }): Promise<void> {
  const base = resolveCommon(flags);
  const store = new StateFile(base.dataDir);
  const { state } = store.load();
  const running = await probeCompanion(base.port);
  const report = {
    version: APP_VERSION,
    platform: process.platform,
    linked: running ? running.linked : Boolean(state.token),
    device: state.device ?? null,
    server: state.server ?? base.server,
    dataDir: base.dataDir,
    running: Boolean(running),
    statusPage: running ? `http://127.0.0.1:${base.port}/` : null,
    stream: running ? ((running.stream as { state?: string } | undefined)?.state ?? null) : null,
    source: running && typeof running.source === 'string' ? running.source : null,
    hueBridges: state.hueBridges.map((b) => ({ name: b.name ?? null, url: b.url })),
    nanoleaf: state.nanoleafDevices.map((d) => ({ name: d.name ?? null, address: `${d.host}:${d.port}` })),
    paused: state.paused,
  };
  if (flags.json) {
    // Valid JSON still: each text (names a device or the server gave) is escaped inside its string.
    console.log(
      JSON.stringify(report, (_key, value: unknown) =>
        typeof value === 'string' ? escapeLogText(value) : value,
      ),
    );
    return;
  }
  say(`Flaglight Companion ${APP_VERSION} (${process.platform})`);
  say(`Linked:      ${report.linked ? `yes${report.device ? ` (${report.device.name})` : ''}` : 'no'}`);
  say(`Server:      ${report.server}`);
  say(`Running:     ${running ? `yes, status page ${report.statusPage}` : 'no'}`);
  if (report.stream) say(`Stream:      ${report.stream}`);
  if (report.source) say(`Source:      ${report.source}`);
  say(
    `Hue bridges: ${report.hueBridges.length ? report.hueBridges.map((b) => b.name ?? b.url).join(', ') : 'none paired'}`,
  );
  say(
    `Nanoleaf:    ${report.nanoleaf.length ? report.nanoleaf.map((d) => d.name ?? d.address).join(', ') : 'none paired'}`,
  );
  say(`Data folder: ${report.dataDir}`);
}

async function link(flags: CommonFlags & { browser?: boolean; name?: string }): Promise<void> {
  const base = resolveCommon(flags);
  const store = new StateFile(base.dataDir);
  const { state } = store.load();
  if (state.token && state.server === base.server) {
    say(
      `Already linked${state.device ? ` as "${state.device.name}"` : ''}. Run \`flaglight-companion unlink\` first to link to another account.`,
    );
    return;
  }
  const api = createServerApi(base.server);
  const controller = new AbortController();
  process.on('SIGINT', () => controller.abort());
  let first = true;
  const outcome = await linkDevice(
    api,
    { name: flags.name ?? os.hostname(), platform: process.platform },
    {
      onCode(code) {
        say(`Open ${code.verification_uri_complete} and confirm ${code.user_code}`);
        if (first && flags.browser !== false) void openBrowser(code.verification_uri_complete);
        first = false;
      },
      onExpired: () => say('The code expired: here is a new one.'),
      onUnreachable: (message) => say(`${message}: trying again…`, 'err'),
    },
    controller.signal,
  );
  if (!outcome.ok) {
    console.error(outcome.reason === 'denied' ? 'Linking was cancelled in the browser.' : 'Stopped.');
    process.exitCode = 1;
    return;
  }
  store.update((s) => ({
    ...s,
    server: base.server,
    token: outcome.token.access_token,
    device: outcome.token.device,
  }));
  say(`Linked as "${outcome.token.device.name}". Start the companion (or restart it) to follow the race.`);
}

async function unlink(flags: CommonFlags): Promise<void> {
  const base = resolveCommon(flags);
  const store = new StateFile(base.dataDir);
  store.load();
  const running = await probeCompanion(base.port);
  if (running) {
    const response = await fetch(`http://127.0.0.1:${base.port}/api/unlink`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).catch(() => null);
    if (!response?.ok)
      throw new Error('The running companion did not accept the unlink. Quit it and try again.');
  } else {
    store.update((s) => ({ ...s, token: undefined, device: undefined }));
  }
  console.log('This computer is no longer linked. Remove it from Settings → Devices in the web app too.');
}

async function autostart(mode: string): Promise<void> {
  if (mode !== 'on' && mode !== 'off') throw new OptionError('autostart: say on or off');
  const result = await setAutostart(mode === 'on', { command: selfCommand() }, currentPlatform());
  console.log(`${result.enabled ? 'Starts' : 'No longer starts'} with your session (${result.where}).`);
  if (result.note) console.log(result.note);
}

const program = new Command()
  .name('flaglight-companion')
  .description('Flaglight Companion: your lights follow the race flags, with no browser open.')
  .version(APP_VERSION, '-v, --version')
  .showHelpAfterError();

common(
  program
    .command('run', { isDefault: true })
    .description('follow the race and drive the lights (the default)'),
)
  .option('--no-browser', 'do not open the browser to link')
  .option('--background', 'run without a console window, logging to the data folder')
  .option('--lifx-targets <list>', 'HOST:PORT[,…] where LIFX discovery is sent (env FLAGLIGHT_LIFX_TARGETS)')
  .option(
    '--govee-targets <list>',
    'HOST[:PORT][,…] where the Govee LAN scan is sent, unicast (env FLAGLIGHT_GOVEE_TARGETS)',
  )
  .option(
    '--govee-ports <scan,listen,command>',
    'Govee LAN ports, default 4001,4002,4003; command "source" for a loopback simulator (env FLAGLIGHT_GOVEE_PORTS)',
  )
  .option('--hue-bridge <list>', 'Hue bridge addresses, https://IP[,…] (env FLAGLIGHT_HUE_BRIDGES)')
  .option('--nanoleaf <list>', 'Nanoleaf controller addresses, HOST[:PORT][,…] (env FLAGLIGHT_NANOLEAF)')
  .option('--wled <list>', 'WLED device addresses, HOST[:PORT][,…] (env FLAGLIGHT_WLED)')
  .option(
    '--home-assistant <url>',
    'Home Assistant, e.g. http://homeassistant.local:8123 (env FLAGLIGHT_HA_URL; token: env FLAGLIGHT_HA_TOKEN or the status page)',
  )
  .option(
    '--home-assistant-insecure',
    "accept Home Assistant's self-signed HTTPS certificate (env FLAGLIGHT_HA_INSECURE=1)",
  )
  .option(
    '--mqtt <url>',
    'publish the flag to an MQTT broker, mqtt[s]://[user:pass@]HOST[:PORT] (env FLAGLIGHT_MQTT_URL; FLAGLIGHT_MQTT_USERNAME, FLAGLIGHT_MQTT_PASSWORD)',
  )
  .addOption(
    new Option('--lan-scan', 'search the network (broadcast, mDNS, Govee multicast) even for a local server'),
  )
  .addOption(
    new Option(
      '--no-lan-scan',
      'only the given LIFX and Govee targets, Hue bridges, Nanoleaf controllers and WLED devices',
    ),
  )
  .option('--name <name>', 'the name shown in Settings → Devices')
  .option('--no-update', 'never check for or install updates (managed installs; env FLAGLIGHT_NO_UPDATE=1)')
  .option(
    '--f1-live <url|off>',
    'F1 live timing, followed directly while the server is unreachable during a session (env FLAGLIGHT_F1_LIVE)',
  )
  .action((flags: RunFlags) => run(flags));

common(program.command('status').description('is it linked, is it running'))
  .option('--json', 'one JSON object')
  .action((flags: CommonFlags & { json?: boolean }) => status(flags));

common(program.command('link').description('link this computer to your Flaglight account'))
  .option('--no-browser', 'only print the link')
  .option('--name <name>', 'the name shown in Settings → Devices')
  .action((flags: CommonFlags & { browser?: boolean; name?: string }) => link(flags));

common(program.command('unlink').description('forget the link on this computer')).action(
  (flags: CommonFlags) => unlink(flags),
);

program
  .command('autostart')
  .description('start the companion when you log in (on) or not (off)')
  .argument('<on|off>')
  .action((mode: string) => autostart(mode));

program.parseAsync(process.argv).catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error), 'err');
  process.exit(1);
});
