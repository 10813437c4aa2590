/**
 * Ferry as Declarative Services components, for OSGi frameworks with a Service Component Runtime (such as Felix
 * SCR) and Configuration Admin: {@link dev.ferry.components.FerryServerComponent} runs a name server and a broker
 * from the configuration {@value dev.ferry.components.FerryServerComponent#PID}, and
 * {@link dev.ferry.components.PushConsumerComponent} runs one push consumer per factory configuration
 * {@value dev.ferry.components.PushConsumerComponent#FACTORY_PID}, delivering to a
 * {@link dev.ferry.api.MessageListener} service. Each starts when its configuration appears, restarts when it
 * changes and stops when it is deleted.
 */
package dev.ferry.components;
