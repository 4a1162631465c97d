/**
 * Signal sources and energy meters for hdfl devices: Pi4J ADCs (ADS1115, MCP3008), GPIO, MQTT and
 * Sparkplug B ingest, file replay, a synthetic machining generator, sliding-window feature
 * extraction, and the {@code EnergyMeter} implementations (RAPL, hwmon, INA219/INA3221, CPU-time
 * model). Depends on no other hdfl module. Filled in by the sensors and federation issues.
 */
package io.hdfl.sensors;
