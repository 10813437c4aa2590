/**
 * Protocol vocabulary shared by Ferry's server and client: request and response codes,
 * languages, header serialization types and the typed-header mapping.
 */
package dev.ferry.remoting.protocol;
