/**
 * What the adapter shows in the application server's platform MBean server ({@code dev.ferry:*}): the embedded
 * engine's figures and each activation's deliveries, lag and readiness.
 */
package dev.ferry.ra.management;
