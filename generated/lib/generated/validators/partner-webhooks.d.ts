declare var validateWebhookEvent: typeof validate21;
declare function validate21(data: any, { instancePath, parentData, parentDataProperty, rootData, dynamicAnchors }?: {
    instancePath?: string | undefined;
    rootData?: any;
    dynamicAnchors?: {} | undefined;
}): boolean;
declare namespace validate21 {
    var evaluated: {
        dynamicProps: boolean;
        dynamicItems: boolean;
    };
}
declare var validateVerificationCreatedEvent: typeof validate61;
declare function validate61(data: any, { instancePath, parentData, parentDataProperty, rootData, dynamicAnchors }?: {
    instancePath?: string | undefined;
    rootData?: any;
    dynamicAnchors?: {} | undefined;
}): boolean;
declare namespace validate61 {
    var evaluated: {
        props: {
            eventId: boolean;
            dataType: boolean;
            eventType: boolean;
            createdAt: boolean;
            data: boolean;
        };
        dynamicProps: boolean;
        dynamicItems: boolean;
    };
}
declare var validateVerificationUpdatedEvent: typeof validate63;
declare function validate63(data: any, { instancePath, parentData, parentDataProperty, rootData, dynamicAnchors }?: {
    instancePath?: string | undefined;
    rootData?: any;
    dynamicAnchors?: {} | undefined;
}): boolean;
declare namespace validate63 {
    var evaluated: {
        props: {
            eventId: boolean;
            dataType: boolean;
            eventType: boolean;
            createdAt: boolean;
            data: boolean;
        };
        dynamicProps: boolean;
        dynamicItems: boolean;
    };
}
declare var validateUserCreatedEvent: typeof validate65;
declare function validate65(data: any, { instancePath, parentData, parentDataProperty, rootData, dynamicAnchors }?: {
    instancePath?: string | undefined;
    rootData?: any;
    dynamicAnchors?: {} | undefined;
}): boolean;
declare namespace validate65 {
    var evaluated: {
        props: {
            eventId: boolean;
            dataType: boolean;
            eventType: boolean;
            createdAt: boolean;
            data: boolean;
        };
        dynamicProps: boolean;
        dynamicItems: boolean;
    };
}
declare var validateUserMergedEvent: typeof validate67;
declare function validate67(data: any, { instancePath, parentData, parentDataProperty, rootData, dynamicAnchors }?: {
    instancePath?: string | undefined;
    rootData?: any;
    dynamicAnchors?: {} | undefined;
}): boolean;
declare namespace validate67 {
    var evaluated: {
        props: {
            eventId: boolean;
            dataType: boolean;
            eventType: boolean;
            createdAt: boolean;
            data: boolean;
        };
        dynamicProps: boolean;
        dynamicItems: boolean;
    };
}
declare var validateUserUpdatedEvent: typeof validate69;
declare function validate69(data: any, { instancePath, parentData, parentDataProperty, rootData, dynamicAnchors }?: {
    instancePath?: string | undefined;
    rootData?: any;
    dynamicAnchors?: {} | undefined;
}): boolean;
declare namespace validate69 {
    var evaluated: {
        props: {
            eventId: boolean;
            dataType: boolean;
            eventType: boolean;
            createdAt: boolean;
            data: boolean;
        };
        dynamicProps: boolean;
        dynamicItems: boolean;
    };
}
declare var validateUserDeletedEvent: typeof validate71;
declare function validate71(data: any, { instancePath, parentData, parentDataProperty, rootData, dynamicAnchors }?: {
    instancePath?: string | undefined;
    rootData?: any;
    dynamicAnchors?: {} | undefined;
}): boolean;
declare namespace validate71 {
    var evaluated: {
        props: {
            eventId: boolean;
            dataType: boolean;
            eventType: boolean;
            createdAt: boolean;
            data: boolean;
        };
        dynamicProps: boolean;
        dynamicItems: boolean;
    };
}
declare var validateShareholderVerifiedEvent: typeof validate73;
declare function validate73(data: any, { instancePath, parentData, parentDataProperty, rootData, dynamicAnchors }?: {
    instancePath?: string | undefined;
    rootData?: any;
    dynamicAnchors?: {} | undefined;
}): boolean;
declare namespace validate73 {
    var evaluated: {
        props: {
            eventId: boolean;
            dataType: boolean;
            eventType: boolean;
            createdAt: boolean;
            data: boolean;
        };
        dynamicProps: boolean;
        dynamicItems: boolean;
    };
}
declare var validatorsByEventType: {
    "verification.created": typeof validate61;
    "verification.updated": typeof validate63;
    "user.created": typeof validate65;
    "user.merged": typeof validate67;
    "user.updated": typeof validate69;
    "user.deleted": typeof validate71;
    "shareholder.verified": typeof validate73;
};
export { validateShareholderVerifiedEvent, validateUserCreatedEvent, validateUserDeletedEvent, validateUserMergedEvent, validateUserUpdatedEvent, validateVerificationCreatedEvent, validateVerificationUpdatedEvent, validateWebhookEvent, validatorsByEventType };
