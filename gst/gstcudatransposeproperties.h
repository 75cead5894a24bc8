/* GStreamer
 * Copyright (C) 2026 The cudatranspose authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/* Installs the element's properties (CT_PROP_*) on its class; returns
 * active-kernel's, which the element notifies when the path changes. */
GParamSpec *ct_properties_install (GObjectClass * gobject_class);

G_END_DECLS
