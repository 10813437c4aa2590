/**
 * Outbound: {@link dev.ferry.ra.outbound.FerryManagedConnectionFactory} makes the application's
 * {@link dev.ferry.api.FerryConnectionFactory} and the managed connections the server pools; every managed
 * connection of one factory shares one producer, and the application's {@link dev.ferry.api.FerryConnection}
 * handles delegate to it and report their close ({@code CONNECTION_CLOSED}). No transactions.
 */
package dev.ferry.ra.outbound;
