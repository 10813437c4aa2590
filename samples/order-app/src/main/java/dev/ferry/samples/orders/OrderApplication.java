package dev.ferry.samples.orders;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The REST endpoints live at the application's root: {@code /order-app/orders}. */
@ApplicationPath("/")
public class OrderApplication extends Application {
}
