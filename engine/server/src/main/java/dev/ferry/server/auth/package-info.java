/**
 * Who may do what: RocketMQ ACL 2.0's users and policies, the signature check of every request, the rules that say
 * which resource and action each request code needs, and the admin requests that manage users and policies. The
 * broker and the name server each put an {@link dev.ferry.server.auth.AccessGuard} in front of their processors.
 */
package dev.ferry.server.auth;
