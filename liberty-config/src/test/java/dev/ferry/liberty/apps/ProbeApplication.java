package dev.ferry.liberty.apps;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

@ApplicationPath("/")
public class ProbeApplication extends Application {
}
