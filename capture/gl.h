// The OpenGL declarations used by the capture module.
//
// Function loading: the GL 3.3 core entry points are called directly through their prototypes in
// <GL/glcorearb.h> (GL_GLEXT_PROTOTYPES) and resolved at link time against libglvnd's
// libOpenGL.so (target OpenGL::OpenGL), which exports every core entry point up to 4.6 and
// dispatches each call to the vendor library behind the context made current through EGL. No
// loader library and no eglGetProcAddress table are needed; a context older than 3.3 is rejected
// when the context is created.
#pragma once

#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/glcorearb.h>
