# Inside a Python wheel (`pip install .`, scikit-build-core): only the shared library, as
# ropekit/libropekit.so next to the package that loads it.
install(FILES $<TARGET_FILE:ropekit_shared> DESTINATION ropekit RENAME libropekit.so)
# The native header, for ropekit.torch's optional C++ kernels (ropekit.torch.load_extension).
install(FILES include/ropekit/ropekit.h DESTINATION ropekit/include/ropekit)
