/**
 * Ferry's Jakarta Connectors 2.1 resource adapter: {@link dev.ferry.ra.FerryResourceAdapter} (embedded or
 * remote engine), the {@link dev.ferry.ra.AdapterRuntime} a started adapter offers its activations
 * ({@code inbound}) and connection factories ({@code outbound}), and {@link dev.ferry.ra.WorkManagerThreadFactory},
 * through which every thread of the engine and the clients is a {@code WorkManager} work.
 *
 * <p>Packages: {@code dev.ferry.ra} is the core and knows neither {@code inbound} nor {@code outbound} (it
 * activates through {@link dev.ferry.ra.Activatable}); both depend on it.
 *
 * <p>Log messages are numbered {@code FERRY-RA-nnnn}: 00xx adapter lifecycle and configuration, 01xx threads,
 * 02xx inbound (activation specs, deliveries), 03xx outbound (connection factories, connections).
 */
package dev.ferry.ra;
