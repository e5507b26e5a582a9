import { describe, expect, it } from 'vitest';
import { configFromEnv, DEFAULT_PORTS, parsePorts, resolveLocalConfig } from '../../local/config.js';

describe('the local configuration of completion events', () => {
  it('reads the EventBridge port as the sixth of --ports, with the default for a shorter list', () => {
    // Act
    const auto = parsePorts('auto');
    const four = parsePorts('5000,5001,5002,5003');
    const six = parsePorts('5000,5001,5002,5003,5004,5005');
    // Assess
    expect(auto.events).toBe(0);
    expect(four).toMatchObject({ sqs: DEFAULT_PORTS.sqs, events: DEFAULT_PORTS.events });
    expect(six).toMatchObject({ sqs: 5004, events: 5005 });
    expect(DEFAULT_PORTS.events).toBe(4685);
  });

  it('takes webhooks from DOCKET_EVENT_WEBHOOKS, comma-separated, and refuses one that is not http(s)', () => {
    // Act
    const config = resolveLocalConfig(
      configFromEnv({ DOCKET_EVENT_WEBHOOKS: ' http://127.0.0.1:9000/a , https://hooks.example/b,' }),
    );
    const refused = () => resolveLocalConfig(configFromEnv({ DOCKET_EVENT_WEBHOOKS: 'ftp://x/y' }));
    // Assess
    expect(config.eventWebhooks).toEqual(['http://127.0.0.1:9000/a', 'https://hooks.example/b']);
    expect(resolveLocalConfig({}).eventWebhooks).toEqual([]);
    expect(refused).toThrow(/eventWebhooks/);
  });

  it('takes a fault plan for the outbox deliverer from DOCKET_FAULTS', () => {
    // Act
    const config = resolveLocalConfig(configFromEnv({ DOCKET_FAULTS: 'outbox-deliverer=-1,extract=1' }));
    // Assess
    expect(config.faults).toEqual({ 'outbox-deliverer': -1, extract: 1 });
  });
});
