/**
 * Ferry's Jakarta Connectors 2.1 resource adapter: {@link dev.ferry.ra.FerryResourceAdapter} (embedded or
 * remote engine), the {@link dev.ferry.ra.AdapterRuntime} a started adapter offers its activations
 * ({@code inbound}) and connection factories ({@code outbound}), and {@link dev.ferry.ra.WorkManagerThreadFactory},
 * through which every thread of the engine and the clients is a {@code WorkManager} work.
 *
 * <p>The adapter's parts: {@code FerryResourceAdapter} is the JavaBean the server configures,
 * {@code AdapterConfigReader} validates its properties into an {@link dev.ferry.ra.AdapterConfig},
 * {@code AdapterLifecycle} starts and stops the threads, the embedded engine and the runtime, and
 * {@code EndpointActivations} holds the running activations.
 *
 * <p>Packages: {@code dev.ferry.ra} is the core and knows none of {@code inbound}, {@code outbound} and
 * {@code management} (it activates through {@link dev.ferry.ra.Activatable}, and answers the server's recovery with
 * its own {@code DeliveryRecovery}); they depend on it, and ArchitectureTest keeps the packages free of cycles.
 *
 * <p>Log messages are numbered {@code FERRY-RA-nnnn}: 00xx adapter lifecycle and configuration, 01xx threads,
 * 02xx inbound (activation specs, deliveries), 03xx outbound (connection factories, connections).
 */
package dev.ferry.ra;
