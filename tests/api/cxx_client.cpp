// Written the way CANN's C++ examples are: only these three includes, scoped enum
// names, and printf without <cstdio> (SPEC §2: acl.h pulls in <stdio.h>).
#include <iostream>
#include <vector>
#include "acl/acl.h"

int main() {
    std::vector<int64_t> shape = {1, 2, 3};
    aclDataType dtype = aclDataType::ACL_FLOAT;
    aclFormat format = aclFormat::ACL_FORMAT_ND;
    aclrtMemcpyKind kind = aclrtMemcpyKind::ACL_MEMCPY_HOST_TO_DEVICE;
    aclrtMemMallocPolicy policy = aclrtMemMallocPolicy::ACL_MEM_MALLOC_HUGE_FIRST;
    printf("shape rank %zu, dtype %d, format %d\n", shape.size(), static_cast<int>(dtype),
           static_cast<int>(format));
    int failures = 0;
    aclError ret = aclInit(nullptr);
    if (ret != ACL_SUCCESS) {
        printf("aclInit failed. ERROR: %d\n", ret);
        return 1;
    }
    failures += aclrtSetDevice(0) != ACL_SUCCESS;
    aclrtStream stream = nullptr;
    failures += aclrtCreateStream(&stream) != ACL_SUCCESS;
    void *dev = nullptr;
    std::vector<float> host = {1.0f, 2.0f, 3.0f};
    failures += aclrtMalloc(&dev, host.size() * sizeof(float), policy) != ACL_SUCCESS;
    failures += aclrtMemcpy(dev, host.size() * sizeof(float), host.data(),
                            host.size() * sizeof(float), kind) != ACL_SUCCESS;
    failures += aclrtSynchronizeStream(stream) != ACL_SUCCESS;
    failures += aclrtFree(dev) != ACL_SUCCESS;
    failures += aclrtDestroyStream(stream) != ACL_SUCCESS;
    failures += aclrtResetDevice(0) != ACL_SUCCESS;
    failures += aclFinalize() != ACL_SUCCESS;
    std::cout << (failures ? "FAILED" : "ok") << std::endl;
    return failures ? 1 : 0;
}
